import type { PartialArguments } from '../arguments/partial-arguments.js';

/** One file a patch names in a header line. */
export interface PatchFile {
  readonly path: string;
  /** `move`: an update that also renames the file to `to` (`*** Move to:`). */
  readonly action: 'add' | 'update' | 'delete' | 'move';
  readonly to?: string;
}

/** The files a patch names so far, in order. Frozen; a new object only when it changed. */
export interface PatchFiles {
  /** The first `PATCH_FILES_KEPT` files. */
  readonly files: readonly PatchFile[];
  /** How many file headers were seen, kept or not. */
  readonly count: number;
}

/** Files kept per patch: a row and a group detail show a few, the rest is a count. */
export const PATCH_FILES_KEPT = 32;
/** Units of one header line kept; a longer path is cut there. */
const LINE_UNITS = 4096;
/** Units read per `textFrom` call while catching up. */
const READ_UNITS = 65536;
/**
 * The scan republishes the node (through recorded reads) per character of the first 512
 * units, once per KiB after that, and when the patch closes: a header shows at the latest
 * one KiB after it arrived.
 */
const HEAD_UNITS = 512;
const STEP_UNITS = 1024;

const CODEX_FILE = /^\*\*\* (Add|Update|Delete) File: (.*)$/;
const CODEX_MOVE = /^\*\*\* Move to: (.*)$/;
const UNIFIED_FILE = /^\+\+\+ (?:b\/)?(.*)$/;
const CODEX_BEGIN = '*** Begin Patch';

interface Scan {
  /** Decoded units consumed. */
  read: number;
  /** The line being read: kept only while it may be a header, at most LINE_UNITS units. */
  line: string;
  /** The line being read can no longer be a header. */
  skip: boolean;
  /** The first line decides the format: a Codex patch has no `+++` headers. */
  codex: boolean | undefined;
  files: PatchFile[];
  count: number;
  /** The last answer; replaced when `changed`. */
  answer: PatchFiles;
  changed: boolean;
}

const EMPTY: PatchFiles = Object.freeze({ files: Object.freeze([]), count: 0 });

/** Scans by reader, then by field: a reader replaced by a new view starts a new scan. */
const scans = new WeakMap<PartialArguments, Map<string, Scan>>();

function couldBeHeader(start: string): boolean {
  const probe = start.slice(0, 4);
  return '*** '.startsWith(probe) || '+++ '.startsWith(probe);
}

function takeLine(scan: Scan, raw: string): void {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (scan.codex === undefined) {
    if (line.trim() === '') return;
    scan.codex = line.trim() === CODEX_BEGIN;
  }
  let file: PatchFile | undefined;
  const codex = CODEX_FILE.exec(line);
  if (codex) {
    const action = (codex[1] as string).toLowerCase() as 'add' | 'update' | 'delete';
    file = { path: (codex[2] as string).trim(), action };
  } else {
    const move = CODEX_MOVE.exec(line);
    const last = scan.files.at(-1);
    if (move && last?.action === 'update' && scan.count === scan.files.length) {
      scan.files[scan.files.length - 1] = {
        path: last.path,
        action: 'move',
        to: (move[1] as string).trim(),
      };
      scan.changed = true;
      return;
    }
    const unified = scan.codex ? null : UNIFIED_FILE.exec(line);
    const path = unified?.[1]?.trim();
    if (path !== undefined && path !== '/dev/null') file = { path, action: 'update' };
  }
  if (file === undefined || file.path === '') return;
  scan.count++;
  if (scan.files.length < PATCH_FILES_KEPT) scan.files.push(Object.freeze(file));
  scan.changed = true;
}

function consume(scan: Scan, text: string): void {
  let at = 0;
  for (;;) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    if (!scan.skip) {
      const room = LINE_UNITS - scan.line.length;
      if (room > 0) scan.line += text.slice(at, Math.min(end, at + room));
      if (!couldBeHeader(scan.line)) scan.skip = true;
    }
    if (newline === -1) return;
    if (!scan.skip) takeLine(scan, scan.line);
    scan.line = '';
    scan.skip = false;
    at = newline + 1;
  }
}

/**
 * The files a patch in string field `key` names in its header lines, as they stream: the
 * Codex format (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`) and
 * unified diffs (`+++ b/path`, when the text does not start with `*** Begin Patch`). A header
 * counts once its line ends (or the field closes), so a path never shows half-written.
 *
 * Incremental: each call reads only the text that arrived since the previous call on the
 * same reader (`textFrom`), and keeps at most one line of it (only while the line may be a
 * header), so a patch of any size is walked once however often it is published. The
 * recorded reads it makes (`textPrefix(key, 512)`, `stringLength(key, { step: 1024 })`,
 * `complete(key)`) republish the node for the first 512 units, then per KiB, then at close:
 * a header shows at most one KiB of text after it arrived. Undefined when the field is not
 * a string.
 */
export function patchFiles(args: PartialArguments, key: string): PatchFiles | undefined {
  if (args.kind(key) !== 'string') return undefined;
  args.textPrefix(key, HEAD_UNITS);
  args.stringLength(key, { step: STEP_UNITS });
  const complete = args.complete(key);

  let byKey = scans.get(args);
  if (!byKey) {
    byKey = new Map();
    scans.set(args, byKey);
  }
  let scan = byKey.get(key);
  if (!scan) {
    scan = {
      read: 0,
      line: '',
      skip: false,
      codex: undefined,
      files: [],
      count: 0,
      answer: EMPTY,
      changed: false,
    };
    byKey.set(key, scan);
  }
  for (;;) {
    const text = args.textFrom(key, scan.read, READ_UNITS);
    if (text === undefined) return undefined;
    consume(scan, text);
    scan.read += text.length;
    if (text.length < READ_UNITS) break;
  }
  if (complete && !scan.skip) {
    takeLine(scan, scan.line);
    scan.line = '';
    scan.skip = true;
  }
  if (scan.changed) {
    scan.changed = false;
    scan.answer = Object.freeze({ files: Object.freeze([...scan.files]), count: scan.count });
  }
  return scan.answer;
}

/** The files as one line: `a.ts, b.ts → c.ts, +3 more` (the first eight named). */
export function patchFileList({ files, count }: PatchFiles): string {
  const named = files
    .slice(0, 8)
    .map((file) => (file.to ? `${file.path} → ${file.to}` : file.path));
  const rest = count - named.length;
  return rest > 0 ? `${named.join(', ')}, +${rest} more` : named.join(', ');
}
