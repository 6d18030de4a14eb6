/**
 * Demo: replays a recorded `write` call through PartialArguments. Deltas only append; once per
 * animation frame the page reads the path (shown once it closes) and the content size in KiB,
 * and touches the DOM only when `refresh()` says an answer it read has changed. The counters
 * show the gap between deltas received and DOM updates made.
 */
import { PartialArguments } from '../src/arguments/partial-arguments.js';
import type { CallfoldEvent } from '../src/events/types.js';
import { decodeTranscript } from '../src/wire/transcript.js';
import { Player } from './demo/player.js';
import transcript from './transcripts/write-call.jsonl?raw';

type Stage = 'waiting' | 'preparing' | 'start' | 'result';

interface Run {
  callId: string | undefined;
  name: string | undefined;
  stage: Stage;
  args: PartialArguments;
  /** The reader changed identity (a new run, or a seal that built a new view): render once. */
  fresh: boolean;
  deltas: number;
  bytes: number;
  /** Frames in which at least one delta had arrived since the previous frame. */
  busyFrames: number;
  pendingDeltas: boolean;
  /** Frames in which the row's argument fields were written to the DOM. */
  updates: number;
  output: unknown;
  isError: boolean;
}

const newRun = (): Run => ({
  callId: undefined,
  name: undefined,
  stage: 'waiting',
  args: PartialArguments.streaming(),
  fresh: true,
  deltas: 0,
  bytes: 0,
  busyFrames: 0,
  pendingDeltas: false,
  updates: 0,
  output: undefined,
  isError: false,
});

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`demo page: #${id} is missing`);
  return found;
}

const ui = {
  stage: element('stage', HTMLElement),
  name: element('tool-name', HTMLElement),
  path: element('tool-path', HTMLElement),
  size: element('tool-size', HTMLElement),
  result: element('tool-result', HTMLElement),
  error: element('tool-error', HTMLElement),
  progress: element('progress', HTMLProgressElement),
  deltas: element('stat-deltas', HTMLElement),
  bytes: element('stat-bytes', HTMLElement),
  frames: element('stat-frames', HTMLElement),
  updates: element('stat-updates', HTMLElement),
  log: element('log', HTMLOListElement),
  restart: element('restart', HTMLButtonElement),
  speeds: element('speed', HTMLFieldSetElement),
  speedError: element('speed-error', HTMLElement),
};

const integer = new Intl.NumberFormat('en');
const kib = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** UTF-8 length; a surrogate counts 2 so a pair makes 4 even when fragments split it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : unit >= 0xd800 && unit <= 0xdfff ? 2 : 3;
  }
  return bytes;
}

let run = newRun();
const steps = decodeTranscript(transcript).map(({ at, event }) => ({
  at,
  run: () => receive(event),
}));
let speed = 1;
let replay = new Player(steps, () => {});

function log(message: string): void {
  const item = document.createElement('li');
  const time = document.createElement('time');
  time.textContent = `${(replay.position / 1000).toFixed(2)} s`;
  item.append(time, ` ${message}`);
  ui.log.append(item);
}

function receive(event: CallfoldEvent): void {
  switch (event.type) {
    case 'stream/tool-call-delta':
      if (run.callId === undefined) run.callId = event.callId;
      if (event.callId !== run.callId) return;
      if (event.name !== undefined && run.name === undefined) {
        run.name = event.name;
        run.stage = 'preparing';
        log(`${event.name} named (${event.callId}): preparing`);
      }
      run.args.append(event.args);
      run.deltas++;
      run.bytes += utf8Length(event.args);
      run.pendingDeltas = true;
      return;
    case 'stream/block-end': {
      if (event.callId !== run.callId) return;
      const sealed = run.args.seal(event.text);
      log(
        sealed === run.args
          ? 'block end: fragments match the full text; the same reader is sealed'
          : 'block end: fragments differ from the full text; a new view reads the full text',
      );
      run.fresh ||= sealed !== run.args;
      run.args = sealed;
      return;
    }
    case 'tool/call':
      if (event.callId !== run.callId) return;
      run.stage = 'start';
      log(`tool/call #${event.seq}: start`);
      return;
    case 'tool/result':
      if (event.callId !== run.callId) return;
      run.stage = 'result';
      run.output = event.output;
      run.isError = event.isError ?? false;
      log(`tool/result #${event.seq}: result`);
      return;
    case 'stream/settle':
      log(`attempt ${event.attemptId} settled`);
      return;
    case 'stream/text-delta':
    case 'tool/approval-request':
    case 'tool/approval':
    case 'turn/start':
    case 'turn/end':
    case 'assistant/message':
      return;
    default:
      // Exhaustive: a new event type fails the typecheck here until it is handled.
      event satisfies never;
  }
}

/** Writes `text` only when it differs, so unchanged frames cost no DOM mutation. */
function show(target: HTMLElement, text: string): void {
  if (target.textContent !== text) target.textContent = text;
}

function renderArguments(path: string | undefined, length: number | undefined): void {
  show(ui.path, path ?? '');
  ui.path.hidden = path === undefined;
  show(ui.size, length === undefined ? '' : `${kib.format(length / 1024)} KiB`);
  ui.size.title = length === undefined ? '' : `${integer.format(length)} characters`;
  show(
    ui.error,
    run.args.invalid ? `Arguments are not valid JSON: ${run.args.invalid.message}` : '',
  );
  ui.error.hidden = run.args.invalid === null;
}

/** Whether `frame` is asked for already. */
let framePending = false;

/**
 * Asks for an animation frame, unless one is asked for already. The frames run until the call
 * shows its result and the replay is over; `start` wakes them again. A page left open at its
 * result asked for a frame 60 times a second before, and spent about an eighth of a core
 * painting its progress bar (headless Chromium, 2026-12-06).
 */
function wake(): void {
  if (framePending) return;
  framePending = true;
  requestAnimationFrame(frame);
}

function frame(): void {
  framePending = false;
  if (run.pendingDeltas) {
    run.busyFrames++;
    run.pendingDeltas = false;
  }
  if (run.stage !== 'waiting') {
    const { args } = run;
    const path = args.complete('file_path') ? args.text('file_path') : undefined;
    const length = args.stringLength('content', { step: 1024 });
    if (args.refresh() || run.fresh) {
      run.fresh = false;
      run.updates++;
      renderArguments(path, length);
    }
  }
  show(ui.name, run.name ?? '');
  show(ui.stage, run.stage);
  ui.stage.dataset.stage = run.stage;
  const output = run.stage === 'result' ? run.output : undefined;
  show(
    ui.result,
    output === undefined ? '' : typeof output === 'string' ? output : JSON.stringify(output),
  );
  ui.result.hidden = output === undefined;
  ui.result.classList.toggle('error', run.isError);
  show(ui.deltas, integer.format(run.deltas));
  show(ui.bytes, integer.format(run.bytes));
  show(ui.frames, integer.format(run.busyFrames));
  show(ui.updates, integer.format(run.updates));
  if (ui.progress.value !== replay.position) ui.progress.value = replay.position;
  if (run.stage !== 'result' || replay.state !== 'done' || run.pendingDeltas) wake();
}

function start(): void {
  run = newRun();
  ui.log.replaceChildren();
  renderArguments(undefined, undefined);
  replay.dispose();
  replay = new Player(steps, () => {});
  replay.speed = speed;
  replay.play();
  wake();
}

/** The fastest `?speed=` taken: beyond it a replay is a frame or two anyway. */
const MAX_SPEED = 1000;

/**
 * `?speed=`: any number above 0 and at most MAX_SPEED selects that speed (a choice is added
 * when it is not one of the buttons); anything else is reported on the page, and the replay
 * plays at 1×. `body[data-speed]` says the speed in use.
 */
function applySpeedParameter(text: string | null): void {
  if (text === null) return;
  const requested = text.trim() === '' ? Number.NaN : Number(text);
  if (!(requested > 0 && requested <= MAX_SPEED)) {
    ui.speedError.textContent = `Ignored ?speed=${text}: give a number above 0 and at most ${MAX_SPEED}, e.g. ?speed=4. Playing at 1×.`;
    ui.speedError.hidden = false;
    return;
  }
  const radios = [...ui.speeds.querySelectorAll<HTMLInputElement>('input[name="speed"]')];
  let radio = radios.find((input) => Number(input.value) === requested);
  if (!radio) {
    radio = document.createElement('input');
    radio.type = 'radio';
    radio.name = 'speed';
    radio.value = String(requested);
    const label = document.createElement('label');
    label.append(radio, ` ${requested}×`);
    ui.speeds.append(label);
  }
  radio.checked = true;
}

applySpeedParameter(new URLSearchParams(location.search).get('speed'));
for (const input of ui.speeds.querySelectorAll<HTMLInputElement>('input[name="speed"]')) {
  if (input.checked) speed = Number(input.value);
}
document.body.dataset.speed = String(speed);
ui.speeds.addEventListener('change', (event) => {
  if (!(event.target instanceof HTMLInputElement)) return;
  speed = Number(event.target.value);
  replay.speed = speed;
  document.body.dataset.speed = String(speed);
});
ui.restart.addEventListener('click', start);
ui.progress.max = replay.duration;
start();
