import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { Assembler } from '../../src/conversation/assembler.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import type { GroupNode } from '../../src/groups/builder.js';
import type { FoldInput, RowKind, StreamedCall } from './fold-content.js';

/**
 * The callfold side of the fold benchmark: what a UI does at every publication, and variants
 * that isolate or break one part of it. Every driver records what it read, and `checkFold`
 * compares that with the answers computed from the text alone, so a broken run cannot pass
 * for a fast one.
 */

/** What the rows and groups read at each publication (-1 / undefined: nothing yet). */
export interface FoldReadings {
  /** Per call, per publication: the label (path or description) the row shows. */
  readonly labels: (string | undefined)[][];
  /** Per call, per publication: the decoded size the row shows (write: content; edit: old + new). */
  readonly sizes: Int32Array[];
  /** Per publication: the detail of the last group, and how many groups there were. */
  readonly details: (string | undefined)[];
  readonly groups: Int32Array;
  /** Per call: the full texts an eager control read at the last publication. */
  readonly eager: (string | undefined)[][];
}

export interface FoldOutcome {
  readonly readings: FoldReadings;
  /** What stays reachable for the retained-heap figures (the Assembler, the readers). */
  readonly held: unknown;
}

export interface FoldDriver {
  readonly name: string;
  readonly note: string;
  /** Whether it reads rows, and has groups, for `checkFold` to check. */
  readonly rows: boolean;
  readonly groups: boolean;
  run(input: FoldInput): FoldOutcome;
}

function emptyReadings(input: FoldInput): FoldReadings {
  const { calls, publications } = input;
  return {
    labels: calls.map(() => new Array<string | undefined>(publications).fill(undefined)),
    sizes: calls.map(() => new Int32Array(publications).fill(-1)),
    details: new Array<string | undefined>(publications).fill(undefined),
    groups: new Int32Array(publications),
    eager: calls.map(() => []),
  };
}

const LABEL: Record<RowKind, string> = {
  write: 'file_path',
  edit: 'file_path',
  bash: 'description',
};
const SIZED: Record<RowKind, readonly string[]> = {
  write: ['content'],
  edit: ['old_string', 'new_string'],
  bash: [],
};
/** What the eager control reads in full: the big fields a lazy row never decodes. */
const EAGER: Record<RowKind, readonly string[]> = {
  write: ['content'],
  edit: ['old_string', 'new_string'],
  bash: ['command'],
};

/**
 * One row's reads, as `<tool-row>` does them (elements/README.md, "What a row shows"):
 * write/edit show the path once `file_path` is complete and the decoded size in 1024-unit
 * steps (edit: old + new); bash shows the description as it streams.
 */
function readRow(
  args: PartialArguments,
  row: RowKind,
  step: { readonly step: number },
  readings: FoldReadings,
  call: number,
  publication: number,
): void {
  if (row === 'bash') {
    readings.labels[call]![publication] = args.text('description');
    return;
  }
  readings.labels[call]![publication] = args.complete(LABEL[row])
    ? args.text(LABEL[row])
    : undefined;
  let size = -1;
  for (const key of SIZED[row]) {
    const length = args.stringLength(key, step);
    if (length !== undefined) size = Math.max(0, size) + length;
  }
  readings.sizes[call]![publication] = size;
}

function readGroups(conversation: Conversation, readings: FoldReadings, publication: number): void {
  let groups = 0;
  let detail: string | undefined;
  for (const item of conversation.items) {
    if (item.kind !== 'group') continue;
    groups++;
    detail = (item as GroupNode).detail;
  }
  readings.groups[publication] = groups;
  readings.details[publication] = detail;
}

function readEager(
  args: PartialArguments,
  row: RowKind,
  readings: FoldReadings,
  call: number,
): void {
  readings.eager[call] = EAGER[row].map((key) => args.text(key));
}

interface FoldOptions {
  readonly rows: boolean;
  readonly eager: boolean;
}

function foldWith(input: FoldInput, options: FoldOptions): FoldOutcome {
  const { calls, events, flushEvery, step } = input;
  const readings = emptyReadings(input);
  const stepOption = { step };
  const assembler = new Assembler();
  let conversation: Conversation | undefined;
  let publication = 0;
  const publish = () => {
    conversation = assembler.publish();
    if (options.rows) {
      for (let c = 0; c < calls.length; c++) {
        const node: ToolNode | undefined = conversation.tools.get(calls[c]!.callId);
        if (node === undefined) continue;
        readRow(node.args, calls[c]!.row, stepOption, readings, c, publication);
        if (options.eager) readEager(node.args, calls[c]!.row, readings, c);
      }
    }
    readGroups(conversation, readings, publication);
    publication++;
  };
  for (let i = 0; i < events.length; i++) {
    assembler.push(events[i]!);
    if ((i + 1) % flushEvery === 0) publish();
  }
  if (events.length % flushEvery !== 0) publish();
  return { readings, held: { assembler, conversation } };
}

export const fold: FoldDriver = {
  name: 'callfold',
  note:
    'new Assembler(); push(event) per delta; publish() every 64 and after the last; each publication ' +
    "reads every row (write/edit: complete('file_path') then text('file_path'), stringLength(…, {step: 1024}); " +
    "bash: text('description')) and every group's detail",
  rows: true,
  groups: true,
  run: (input) => foldWith(input, { rows: true, eager: false }),
};

export const foldWithoutRows: FoldDriver = {
  name: 'callfold, no row reads',
  note: 'the same fold and publications, reading only the group detail (computed during publish): the Assembler + Builder cost',
  rows: false,
  groups: true,
  run: (input) => foldWith(input, { rows: false, eager: false }),
};

export const eagerControl: FoldDriver = {
  name: 'control: eager text()',
  note:
    "negative control: the same fold, but every publication also reads the big fields in full (write: text('content'), " +
    "edit: text('old_string'), text('new_string'), bash: text('command')), as a row that shows the whole field would; " +
    'refresh() then compares whole texts',
  rows: true,
  groups: true,
  run: (input) => foldWith(input, { rows: true, eager: true }),
};

/** The reader alone, fed the same fragments and read the same way: no events, no Assembler, no groups. */
export const readerOnly: FoldDriver = {
  name: 'PartialArguments alone',
  note: 'one PartialArguments.streaming() per call; append(fragment) per delta; the same row reads and refresh() per publication; no Assembler, no groups',
  rows: true,
  groups: false,
  run(input) {
    const { calls, events, flushEvery, step } = input;
    const readings = emptyReadings(input);
    const stepOption = { step };
    const readers = calls.map(() => PartialArguments.streaming());
    const byId = new Map(calls.map((call, c) => [call.callId, c]));
    let publication = 0;
    const publish = () => {
      for (let c = 0; c < calls.length; c++) {
        const reader = readers[c]!;
        readRow(reader, calls[c]!.row, stepOption, readings, c, publication);
        reader.refresh();
      }
      publication++;
    };
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      readers[byId.get(event.callId)!]!.append(event.args);
      if ((i + 1) % flushEvery === 0) publish();
    }
    if (events.length % flushEvery !== 0) publish();
    return { readings, held: readers };
  },
};

/** Throws unless every recorded answer equals the one computed from the text alone. */
export function checkFold(driver: FoldDriver, input: FoldInput, { readings }: FoldOutcome): void {
  const fail = (what: string): never => {
    throw new Error(`${driver.name} on ${input.id}: ${what}`);
  };
  const last = input.publications - 1;
  if (driver.rows) checkRows(driver, input, readings, fail);
  if (!driver.groups) return;
  const latest = input.calls[input.calls.length - 1]!;
  for (let p = 0; p < input.publications; p++) {
    if (readings.groups[p] !== 1) fail(`publication ${p}: ${readings.groups[p]} groups`);
    if (p >= latest.labelCompleteAt && readings.details[p] !== latest.expectedDetail) {
      fail(`publication ${p}: detail ${JSON.stringify(readings.details[p])}`);
    }
  }
  if (readings.details[last] !== latest.expectedDetail) fail('no final detail');
}

function checkRows(
  driver: FoldDriver,
  input: FoldInput,
  readings: FoldReadings,
  fail: (what: string) => never,
): void {
  const last = input.publications - 1;
  input.calls.forEach((call: StreamedCall, c) => {
    const labels = readings.labels[c]!;
    const sizes = readings.sizes[c]!;
    for (let p = 0; p < input.publications; p++) {
      const label = labels[p];
      const want = call.expectedLabels[p];
      // A streaming description shows its decoded prefix before it is complete.
      const ok =
        call.row === 'bash' && want === undefined
          ? label === undefined || call.values.description!.startsWith(label)
          : label === want;
      if (!ok) fail(`${call.callId} publication ${p}: label ${JSON.stringify(label)}`);
      if (call.row !== 'bash' && sizes[p] !== call.expectedSizes[p]) {
        fail(
          `${call.callId} publication ${p}: size ${sizes[p]}, expected ${call.expectedSizes[p]}`,
        );
      }
    }
    const sized = SIZED[call.row].reduce((sum, key) => sum + call.values[key]!.length, 0);
    if (call.row !== 'bash' && sizes[last] !== sized)
      fail(`${call.callId}: final size ${sizes[last]}`);
    if (labels[last] !== call.values[LABEL[call.row]])
      fail(`${call.callId}: final label ${labels[last]}`);
    const eager = readings.eager[c]!;
    if (driver === eagerControl) {
      EAGER[call.row].forEach((key, k) => {
        if (eager[k] !== call.values[key]) fail(`${call.callId}: eager ${key} text differs`);
      });
    }
  });
}
