/**
 * The demo page: a recorded agent session replayed at its real pace through a provider
 * adapter, `assemble()` and `<tool-timeline>`; reconnection, reload from history pages, a
 * live mode against the user's own endpoint, and a chart of when each stage showed.
 *
 * The session goes over real HTTP: the page publishes every event to `npm start`'s dev
 * server (`sessionHandler` + `memoryStore`, examples/demo/session-endpoint.node.ts), and the
 * timeline follows it back with `followSession`; "Reconnect" resumes with `Last-Event-ID`,
 * "Reload as history" pages with `loadHistory`.
 *
 * URL parameters: `speed` (e.g. `?speed=100`), `provider` (a replay source, see the
 * selector), `until` (pause at that recorded ms, for screenshots).
 *
 * The session's approval is the viewer's: the replay waits at the recorded answer until the
 * viewer activates Approve or Deny on the row (the timeline's `tool-approval` event). Granted,
 * the call runs and gets its recorded result; denied, it shows "Denied" and the recording
 * goes on without its result.
 */
import '../../elements/tool-timeline.js';
import type { ToolTimelineElement } from '../../elements/classes.js';
import { Assembler } from '../../src/conversation/assembler.js';
import { definitionsWithTurns } from '../../src/conversation/turns.js';
import type { TurnNode } from '../../src/definitions/turn-definition.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { createSession } from '../../src/providers/session.js';
import { decodeTranscript } from '../../src/wire/transcript.js';
import sessionUrl from '../transcripts/demo-session.jsonl?url';
import { sameConversation } from './conversation-summary.js';
import { type LiveApi, liveSession } from './live-session.js';
import { Player, type Step } from './player.js';
import { type Answer, isReplaySource, providers, replaySteps } from './replay-steps.js';
import { type Script, scriptOf } from './session-script.js';
import { SessionServer } from './session-server.js';
import { renderStageChart } from './stage-chart.js';
import { StageTimings } from './stage-timings.js';
import { Viewer } from './viewer.js';

/** The recording's wall clock at its start (durable events' `at` as a Session stamps them). */
const EPOCH = Date.UTC(2026, 10, 30, 9, 0, 0);
const HISTORY_PAGE = 8;
const OUTAGE_MS = 800;

function element<T extends Element>(selector: string, type: abstract new () => T): T {
  const found = document.querySelector(selector);
  if (!(found instanceof type)) throw new Error(`demo page: ${selector} is missing`);
  return found;
}

const ui = {
  timeline: element('#timeline', HTMLElement) as ToolTimelineElement,
  play: element('#play', HTMLButtonElement),
  speed: element('#speed', HTMLSelectElement),
  restart: element('#restart', HTMLButtonElement),
  finish: element('#finish', HTMLButtonElement),
  provider: element('#provider', HTMLSelectElement),
  progress: element('#progress', HTMLProgressElement),
  clock: element('#clock', HTMLElement),
  reconnect: element('#reconnect', HTMLButtonElement),
  history: element('#history', HTMLButtonElement),
  chart: element('#chart', HTMLElement),
  match: element('#match', HTMLElement),
  log: element('#log', HTMLOListElement),
  liveForm: element('#live-form', HTMLFormElement),
  liveApi: element('#live-api', HTMLSelectElement),
  liveBase: element('#live-base', HTMLInputElement),
  liveModel: element('#live-model', HTMLInputElement),
  liveKey: element('#live-key', HTMLInputElement),
  livePrompt: element('#live-prompt', HTMLTextAreaElement),
  liveStop: element('#live-stop', HTMLButtonElement),
};

/** One run of the session: a replay or a live turn, the server it feeds, and what watches it. */
interface Run {
  readonly server: SessionServer;
  /** Folds every event, uninterrupted: what the timeline must end up showing. */
  readonly reference: Assembler<TurnNode>;
  readonly timings: StageTimings;
  readonly player: Player | undefined;
  /** The run's clock in recorded ms. */
  now(): number;
  /** The chart's time axis, in ms. */
  duration(): number;
  finished: boolean;
  onDispose(cleanup: () => void): void;
  dispose(): void;
}

const params = new URLSearchParams(location.search);
let script: Script | undefined;
let run: Run | undefined;
let viewer: Viewer | undefined;
/** Viewer inputs when the match was last checked; undefined while a check is due. */
let checkedAt: number | undefined;
let quietFrames = 0;
let seenInputs = -1;

function log(message: string): void {
  const item = document.createElement('li');
  const time = document.createElement('time');
  time.textContent = `${((run?.now() ?? 0) / 1000).toFixed(1)} s`;
  item.append(time, ` ${message}`);
  ui.log.append(item);
  while (ui.log.children.length > 9) ui.log.firstElementChild?.remove();
}

/** Notes what a reader of the session should notice. */
function narrate(event: CallfoldEvent, timings: StageTimings): void {
  switch (event.type) {
    case 'turn/start':
      log(`Turn ${event.turnId} starts.`);
      break;
    case 'stream/settle': {
      const withdrawn = timings.calls.filter(
        (call) => call.attemptId === event.attemptId && call.withdrawn !== undefined,
      );
      if (withdrawn.length > 0) {
        const names = withdrawn.map((call) => call.name).join(', ');
        const verb = withdrawn.length === 1 ? 'was' : 'were';
        log(`Response ${event.attemptId} was cut: its preparing ${names} ${verb} withdrawn.`);
      }
      break;
    }
    case 'tool/result':
      if (event.isError) {
        const name = timings.calls.find((call) => call.callId === event.callId)?.name ?? 'A call';
        log(`${name} failed: its row shows the error.`);
      }
      break;
    case 'turn/end':
      log(`Turn ${event.turnId} ends.`);
      break;
    default:
      break;
  }
}

/** What a run is fed by: replay steps for the player, or nothing (a live turn publishes itself). */
type Feed = (publish: (event: CallfoldEvent, at: number) => void) => {
  steps: Step[];
  dispose(): void;
};

/** Starts a run; `publish(event, at)` hands it an event seen at `at` (default: its clock). */
function newRun(feed: Feed | null): {
  run: Run;
  publish: (event: CallfoldEvent, at?: number) => void;
} {
  run?.dispose();
  viewer?.dispose();
  ui.log.replaceChildren();
  const server = new SessionServer();
  // The timeline folds its source with turns; so does the reference it is compared with.
  const reference = new Assembler<TurnNode>({ definitions: definitionsWithTurns });
  const timings = new StageTimings();
  const started = performance.now();
  let player: Player | undefined;
  const now = () => (player ? player.lastAt : performance.now() - started);
  server.onError = (message) => log(`The session server refused an event: ${message}`);
  const publish = (event: CallfoldEvent, at = now()) => {
    server.publish(event);
    reference.push(event);
    timings.observe(event, at);
    narrate(event, timings);
  };
  const replay = feed?.(publish);
  const cleanups = [() => player?.dispose(), () => replay?.dispose(), () => server.close()];
  const current: Run = {
    server,
    reference,
    timings,
    get player() {
      return player;
    },
    now,
    duration: () => (player ? player.duration : now()),
    finished: false,
    onDispose: (cleanup) => cleanups.push(cleanup),
    dispose: () => {
      for (const cleanup of cleanups) cleanup();
    },
  };
  if (replay) {
    const until = Number(params.get('until'));
    if (until > 0) {
      const at = replay.steps.findIndex((step) => step.at > until);
      replay.steps.splice(at === -1 ? replay.steps.length : at, 0, pauseAt(until));
    }
    player = new Player(replay.steps, () => {
      if (player?.state === 'done') current.finished = true;
      showState();
    });
    player.speed = Number(ui.speed.value);
  }
  run = current;
  viewer = new Viewer(ui.timeline);
  void viewer.connect(server).then(showState);
  checkedAt = undefined;
  showMatch('pending');
  wake();
  return { run: current, publish };
}

/** A step that pauses the replay: `?until=ms` stops there for a screenshot. */
function pauseAt(at: number): Step {
  return { at, run: () => run?.player?.pause() };
}

/** The viewer's answers to approval requests, by callId, for the current run. */
let answers = new Map<string, boolean>();
/** Replays waiting for an answer, by callId. */
let asking = new Map<string, (approved: boolean) => void>();

ui.timeline.addEventListener('tool-approval', (event) => {
  const { callId, approved } = event.detail;
  if (answers.has(callId)) return;
  answers.set(callId, approved);
  const name = run?.timings.calls.find((call) => call.callId === callId)?.name ?? 'The call';
  log(approved ? `You approved ${name}: it runs.` : `You denied ${name}: it will not run.`);
  asking.get(callId)?.(approved);
  asking.delete(callId);
});

/** The viewer's answer for `callId`: given already, or awaited. */
const answer: Answer = (callId) => {
  const given = answers.get(callId);
  if (given !== undefined) return Promise.resolve(given);
  const name = run?.timings.calls.find((call) => call.callId === callId)?.name ?? 'A call';
  log(`${name} waits for your approval: Approve or Deny on its row.`);
  return new Promise((resolve) => asking.set(callId, resolve));
};

function startReplay(): void {
  const loaded = script;
  const source = ui.provider.value;
  if (!loaded || !isReplaySource(source)) return;
  answers = new Map();
  asking = new Map();
  const { run: current } = newRun((publish) => replaySteps(loaded, source, publish, EPOCH, answer));
  document.body.dataset.provider = source;
  log(`Replaying through ${source === 'events' ? 'no adapter' : providers[source].label}.`);
  current.player?.play();
  showState();
}

function startLive(): void {
  const api = ui.liveApi.value as LiveApi;
  const request = {
    api,
    baseUrl: ui.liveBase.value,
    model: ui.liveModel.value,
    apiKey: ui.liveKey.value,
    prompt: ui.livePrompt.value,
  };
  const { run: current, publish } = newRun(null);
  document.body.dataset.provider = `live:${api}`;
  log(`Streaming from ${new URL(request.baseUrl).host} (${api}).`);
  const subscription = liveSession(request, createSession()).subscribe({
    next: (event) => publish(event),
    error: (error: unknown) => {
      log(`The request failed: ${error instanceof Error ? error.message : String(error)}`);
      current.finished = true;
      showState();
    },
    complete: () => {
      log('The response ended; its calls are reported as not run.');
      current.finished = true;
      showState();
    },
  });
  current.onDispose(() => subscription.unsubscribe());
  showState();
}

function showState(): void {
  wake();
  const player = run?.player;
  const state = !run
    ? 'loading'
    : run.finished
      ? checkedAt === undefined
        ? 'finishing'
        : 'done'
      : player?.waiting
        ? 'waiting'
        : (player?.state ?? 'playing');
  document.body.dataset.state = state;
  ui.play.textContent = player?.state === 'playing' ? 'Pause' : 'Play';
  ui.play.disabled = !player || player.state === 'done';
  ui.finish.disabled = !player || player.state === 'done';
  ui.reconnect.disabled = !run || !viewer?.connected;
  ui.history.disabled = !run;
}

function showMatch(state: 'pending' | 'true' | 'false', text?: string): void {
  document.body.dataset.match = state;
  if (text) ui.match.textContent = text;
}

/** Once the run ended and the timeline caught up, compares it with the uninterrupted fold. */
function checkMatch(): void {
  if (!run?.finished || !viewer?.connected || checkedAt !== undefined) return;
  // Everything published is on the server, and the viewer has read it back.
  if (!run.server.idle || viewer.lastSeq < run.server.lastSeq) return;
  if (viewer.inputs !== seenInputs) {
    seenInputs = viewer.inputs;
    quietFrames = 0;
    return;
  }
  // Two frames without input: assemble() has published and the elements have rendered.
  if (++quietFrames < 2) return;
  checkedAt = viewer.inputs;
  const same = sameConversation(ui.timeline.shown, run.reference.publish());
  showMatch(
    same ? 'true' : 'false',
    same
      ? '✓ The view equals an uninterrupted live fold of the same events.'
      : '✗ The view differs from an uninterrupted live fold.',
  );
  showState();
}

let chartVersion = -1;
let chartDuration = -1;
/** Whether `frame` is asked for already. */
let framePending = false;

/**
 * Asks for an animation frame, unless one is asked for already: the frames run while the run
 * can still change what the page shows, and stop once it ended and its view was checked, until
 * the next change of state (`showState`) wakes them. A page left open after its replay asks for
 * no frame: it spent about a fifth of a core on them before (its clock, its progress bar and the
 * chart of a call cut while preparing, redrawn 60 times a second; measured in headless
 * Chromium, 2026-12-06).
 */
function wake(): void {
  if (framePending) return;
  framePending = true;
  requestAnimationFrame(frame);
}

function frame(): void {
  framePending = false;
  if (!run) return;
  const position = run.player ? run.player.position : run.now();
  const duration = run.duration();
  const max = Math.max(duration, 1);
  if (ui.progress.max !== max) ui.progress.max = max;
  if (ui.progress.value !== position) ui.progress.value = position;
  const clock = `${(position / 1000).toFixed(1)} s / ${(duration / 1000).toFixed(1)} s`;
  if (ui.clock.textContent !== clock) ui.clock.textContent = clock;
  const chartSpan = run.player ? duration : Math.ceil(duration / 5000) * 5000;
  const preparing = run.timings.calls.some(
    (call) => call.dispatch === undefined && call.withdrawn === undefined,
  );
  if (preparing || run.timings.version !== chartVersion || chartSpan !== chartDuration) {
    chartVersion = run.timings.version;
    chartDuration = chartSpan;
    renderStageChart(ui.chart, run.timings.calls, chartSpan, run.now());
  }
  checkMatch();
  if (!run.finished || checkedAt === undefined) wake();
}

ui.play.addEventListener('click', () => {
  const player = run?.player;
  if (player?.state === 'playing') player.pause();
  else player?.play();
});
ui.speed.addEventListener('change', () => {
  if (run?.player) run.player.speed = Number(ui.speed.value);
});
ui.restart.addEventListener('click', startReplay);
ui.finish.addEventListener('click', () => run?.player?.finish());
ui.provider.addEventListener('change', startReplay);
ui.reconnect.addEventListener('click', () => {
  const current = run;
  const client = viewer;
  if (!current || !client?.connected) return;
  client.drop();
  checkedAt = undefined;
  showMatch('pending');
  log('The connection dropped: nothing arrives for a moment.');
  showState();
  setTimeout(async () => {
    if (run !== current || viewer !== client) return;
    const reconnection = client.reconnect(current.server);
    showState();
    const { after, missed, replayed } = await reconnection;
    if (run !== current || viewer !== client) return;
    log(
      `Reconnected with Last-Event-ID ${after}: live stream events withdrawn, ` +
        `${missed} missed durable events and a replay of ${replayed} live stream events received over HTTP.`,
    );
  }, OUTAGE_MS);
});
ui.history.addEventListener('click', async () => {
  const current = run;
  if (!current) return;
  viewer?.dispose();
  const client = new Viewer(ui.timeline);
  viewer = client;
  checkedAt = undefined;
  showMatch('pending');
  showState();
  try {
    const { pages, events } = await client.loadHistory(current.server, HISTORY_PAGE);
    if (run !== current || viewer !== client) return;
    log(
      `Reloaded: ${events} durable events in ${pages} history pages (newest first) over HTTP, ` +
        'then following live.',
    );
  } catch (error) {
    log(`Loading history failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  showState();
});
ui.liveForm.addEventListener('submit', (event) => {
  event.preventDefault();
  startLive();
});
ui.liveApi.addEventListener('change', () => {
  const anthropic = ui.liveApi.value === 'anthropic-messages';
  ui.liveBase.value = anthropic ? 'https://api.anthropic.com/v1' : 'https://api.openai.com/v1';
  ui.liveModel.value = anthropic ? 'claude-sonnet-4-5' : 'gpt-4.1';
});
ui.liveStop.addEventListener('click', () => {
  if (run && !run.player) {
    run.dispose();
    run.finished = true;
    log('Stopped.');
    showState();
  }
});

const speed = params.get('speed');
if (speed !== null) {
  if (![...ui.speed.options].some((option) => option.value === speed))
    ui.speed.add(new Option(`${speed}×`, speed));
  ui.speed.value = speed;
}
const provider = params.get('provider');
if (provider !== null && isReplaySource(provider)) ui.provider.value = provider;

const response = await fetch(sessionUrl);
script = scriptOf(decodeTranscript(await response.text()));
startReplay();
