/**
 * `callfold/server/file`: a session store in files, for one Node process.
 *
 * @module callfold/server/file
 */
import {
  type FileHandle,
  mkdir,
  open,
  readdir,
  readFile,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionEvent } from '../events/types.js';
import type { DurableLog } from './durable-log.js';
import { LocalStore, type LocalStoreOptions } from './local-store.js';
import { assertSessionId, isSessionId } from './session-id.js';
import { isLife } from './session-life.js';
import type { SessionStore } from './session-store.js';

export interface FileStoreOptions extends LocalStoreOptions {
  /** The directory of the session files (created if missing). */
  readonly dir: string;
  /** How many sessions keep their files open at once (least recently used are closed). Default 256. */
  readonly openSessions?: number;
}

/** Each index record is the byte offset of one event's line, as a float64 (exact below 2^53). */
const recordBytes = 8;

interface SessionFiles {
  readonly log: FileHandle;
  readonly index: FileHandle;
  /** Bytes of whole, acknowledged lines in the log. */
  size: number;
  /** Events in the log; event seq N is line N (seqs are 1, 2, 3… with no gap). */
  count: number;
  busy: number;
}

/**
 * The log of `fileStore`: `<dir>/<sessionId>.jsonl` holds one numbered event per line;
 * `<dir>/<sessionId>.idx` holds each line's byte offset, so a page reads its lines and
 * nothing else.
 *
 * Durability: a batch is one write of whole lines followed by `datasync`; `append`
 * resolves only after it. A crash can leave a torn last line (never acknowledged): reading
 * ignores it and the next open truncates it away before appending. The index is derived
 * data: on open it is checked against the log and rebuilt from the last offset it holds.
 */
class FileLog implements DurableLog {
  readonly #dir: string;
  readonly #limit: number;
  readonly #open = new Map<string, Promise<SessionFiles>>();
  #made: Promise<unknown> | undefined;

  constructor(dir: string, openSessions: number) {
    this.#dir = dir;
    this.#limit = openSessions;
  }

  async #use<T>(sessionId: string, task: (files: SessionFiles) => Promise<T>): Promise<T> {
    assertSessionId(sessionId);
    let opening = this.#open.get(sessionId);
    if (opening) this.#open.delete(sessionId);
    else opening = this.#load(sessionId);
    this.#open.set(sessionId, opening);
    opening.catch(() => this.#open.delete(sessionId));
    const files = await opening;
    files.busy++;
    try {
      return await task(files);
    } finally {
      files.busy--;
      void this.#evict();
    }
  }

  async #evict(): Promise<void> {
    if (this.#open.size <= this.#limit) return;
    for (const [sessionId, opening] of this.#open) {
      if (this.#open.size <= this.#limit) return;
      const files = await opening.catch(() => undefined);
      if (files && files.busy > 0) continue;
      this.#open.delete(sessionId);
      if (files) await Promise.all([files.log.close(), files.index.close()]);
    }
  }

  async #load(sessionId: string): Promise<SessionFiles> {
    this.#made ??= mkdir(this.#dir, { recursive: true });
    await this.#made;
    const log = await open(join(this.#dir, `${sessionId}.jsonl`), 'a+');
    const index = await open(join(this.#dir, `${sessionId}.idx`), 'a+');
    try {
      return await recover(log, index);
    } catch (error) {
      await Promise.all([log.close(), index.close()]);
      throw error;
    }
  }

  lastSeq(sessionId: string): Promise<number> {
    return this.#use(sessionId, async (files) => files.count);
  }

  write(sessionId: string, events: readonly SessionEvent[]): Promise<void> {
    return this.#use(sessionId, async (files) => {
      const offsets = new Float64Array(events.length);
      let text = '';
      let at = files.size;
      for (const [i, event] of events.entries()) {
        if (event.seq !== files.count + 1 + i) {
          throw new RangeError(`file store: seq ${event.seq} does not follow ${files.count + i}`);
        }
        const line = `${JSON.stringify(event)}\n`;
        offsets[i] = at;
        at += Buffer.byteLength(line);
        text += line;
      }
      try {
        await files.log.write(text);
        await files.log.datasync();
      } catch (error) {
        // Nothing was acknowledged: cut the log back so the next batch follows whole lines.
        await files.log.truncate(files.size).catch(() => {});
        throw error;
      }
      files.size = at;
      files.count += events.length;
      // Not synced: a lost tail is rebuilt from the log on the next open.
      await files.index.write(new Uint8Array(offsets.buffer));
    });
  }

  page(
    sessionId: string,
    { before, limit }: { before: number; limit: number },
  ): Promise<readonly SessionEvent[]> {
    return this.#use(sessionId, async (files) => {
      const last = Math.min(files.count, Math.ceil(before) - 1);
      return readLines(files, Math.max(1, last - limit + 1), last);
    });
  }

  range(
    sessionId: string,
    after: number,
    through: number,
    limit: number,
  ): Promise<readonly SessionEvent[]> {
    return this.#use(sessionId, async (files) => {
      const first = Math.max(1, Math.floor(after) + 1);
      return readLines(files, first, Math.min(files.count, Math.floor(through), first + limit - 1));
    });
  }

  async life(sessionId: string, fresh: string): Promise<string> {
    assertSessionId(sessionId);
    this.#made ??= mkdir(this.#dir, { recursive: true });
    await this.#made;
    const path = join(this.#dir, `${sessionId}.life`);
    try {
      await writeFile(path, fresh, { flag: 'wx' });
      return fresh;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const kept = (await readFile(path, 'utf8')).trim();
      return isLife(kept) ? kept : fresh;
    }
  }

  async delete(sessionId: string): Promise<void> {
    assertSessionId(sessionId);
    const opening = this.#open.get(sessionId);
    this.#open.delete(sessionId);
    const files = await opening?.catch(() => undefined);
    if (files) await Promise.all([files.log.close(), files.index.close()]);
    await Promise.all(
      ['jsonl', 'idx', 'life'].map((extension) =>
        unlink(join(this.#dir, `${sessionId}.${extension}`)).catch((error: unknown) => {
          if ((error as { code?: string }).code !== 'ENOENT') throw error;
        }),
      ),
    );
  }

  /** Each session's log (or life, for one only followed) with its last modification time. */
  async *stored(): AsyncIterable<{ sessionId: string; writtenAt: number }> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return;
    }
    const seen = new Set<string>();
    for (const name of names) {
      const dot = name.lastIndexOf('.');
      const sessionId = name.slice(0, dot);
      const extension = name.slice(dot + 1);
      if ((extension !== 'jsonl' && extension !== 'life') || seen.has(sessionId)) continue;
      if (!isSessionId(sessionId)) continue;
      seen.add(sessionId);
      const log = await stat(join(this.#dir, `${sessionId}.jsonl`)).catch(() => undefined);
      const life = await stat(join(this.#dir, `${sessionId}.life`)).catch(() => undefined);
      const writtenAt = Math.max(log?.mtimeMs ?? 0, life?.mtimeMs ?? 0);
      if (writtenAt > 0) yield { sessionId, writtenAt };
    }
  }

  async close(): Promise<void> {
    const all = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(
      all.map(async (opening) => {
        const files = await opening.catch(() => undefined);
        if (files) await Promise.all([files.log.close(), files.index.close()]);
      }),
    );
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(buffer, read, length - read, position + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return buffer.subarray(0, read);
}

/** The byte offset of line `seq` (1-based); the log's size for the line after the last. */
async function offsetOf(files: SessionFiles, seq: number): Promise<number> {
  if (seq > files.count) return files.size;
  const bytes = await readAt(files.index, (seq - 1) * recordBytes, recordBytes);
  return new DataView(bytes.buffer, bytes.byteOffset, recordBytes).getFloat64(0, true);
}

async function readLines(
  files: SessionFiles,
  first: number,
  last: number,
): Promise<SessionEvent[]> {
  if (last < first) return [];
  const start = await offsetOf(files, first);
  const end = await offsetOf(files, last + 1);
  const text = (await readAt(files.log, start, end - start)).toString('utf8');
  const lines = text.split('\n');
  lines.pop();
  return lines.map((line) => JSON.parse(line) as SessionEvent);
}

/**
 * Brings a session's files to a consistent state: the log's whole lines are kept (a torn
 * last line, without its newline or not JSON, is cut off), and index records are rebuilt
 * for lines the index lacks.
 */
async function recover(log: FileHandle, index: FileHandle): Promise<SessionFiles> {
  const logSize = (await log.stat()).size;
  const indexSize = (await index.stat()).size;
  let count = Math.floor(indexSize / recordBytes);
  let from = 0;
  // Trust the index only as far as its offsets fall inside the log.
  while (count > 0) {
    const bytes = await readAt(index, (count - 1) * recordBytes, recordBytes);
    const offset = new DataView(bytes.buffer, bytes.byteOffset, recordBytes).getFloat64(0, true);
    if (offset < logSize) {
      from = offset;
      count -= 1;
      break;
    }
    count -= 1;
  }
  const tail = (await readAt(log, from, logSize - from)).toString('utf8');
  const offsets: number[] = [];
  let at = from;
  let good = from;
  for (let start = 0; start < tail.length; ) {
    const newline = tail.indexOf('\n', start);
    if (newline < 0) break;
    const line = tail.slice(start, newline);
    try {
      JSON.parse(line);
    } catch {
      break;
    }
    offsets.push(at);
    at += Buffer.byteLength(line) + 1;
    good = at;
    start = newline + 1;
  }
  if (good < logSize) await log.truncate(good);
  await index.truncate(count * recordBytes);
  if (offsets.length > 0) await index.write(new Uint8Array(new Float64Array(offsets).buffer));
  return { log, index, size: good, count: count + offsets.length, busy: 0 };
}

/**
 * A durable store for one machine, with no server to run: an append-only JSONL log per
 * session in `dir`, with an offset index for pages. Live attempts, leases and followers
 * live in this process (one process per directory).
 *
 * An acknowledged `append` survives a crash (each batch is written whole and `datasync`ed
 * before it resolves); a torn last line left by a crash is ignored and cut off on the next
 * open. With `ttlMs`, a sweep deletes the files of sessions idle that long, those written by
 * an earlier process included (by the files' modification time). Session ids are validated (`[A-Za-z0-9_.-]`, no leading `.`), so one can never
 * name a path outside `dir`. Node, Deno and Bun (`node:fs`).
 *
 * @example
 * ```ts
 * import { fileStore } from 'callfold/server/file';
 * const store = fileStore({ dir: './sessions' });
 * ```
 */
export function fileStore(options: FileStoreOptions): SessionStore {
  if (typeof options?.dir !== 'string' || options.dir === '') {
    throw new TypeError('fileStore: options.dir is required');
  }
  return new LocalStore(new FileLog(options.dir, options.openSessions ?? 256), options);
}
