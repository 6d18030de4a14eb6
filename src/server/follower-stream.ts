import { type CallfoldEvent, isDurableEvent } from '../events/types.js';
import { encodeSSE } from '../wire/sse.js';
import { FollowerQueue } from './follower-queue.js';
import type { ClosableFollower, HandlerFollowers } from './handler-followers.js';
import { isBatchedFollow } from './session-store.js';

export interface FollowerStreamOptions {
  readonly heartbeatMs: number;
  readonly maxBufferBytes: number;
  /** Writes a batch in another wire format (one follower's own, e.g. AG-UI). Default: callfold SSE, shared by all followers. */
  readonly encode?: (events: readonly CallfoldEvent[]) => Uint8Array;
  /** The session's life: each durable event's `id:` is `<seq>-<life>` (see session-life.ts). */
  readonly life?: string;
  /** The handler's followers: this one joins them while open (`close()`, `metrics()`). */
  readonly followers?: HandlerFollowers;
}

const utf8 = new TextEncoder();
/** Each event is encoded once, whatever the number of followers it goes to. */
const encoded = new WeakMap<CallfoldEvent, { readonly life: string; readonly bytes: Uint8Array }>();
const ping = utf8.encode(': ping\n\n');

function encode(event: CallfoldEvent, life: string): Uint8Array {
  const cached = encoded.get(event);
  if (cached?.life === life) return cached.bytes;
  let text = encodeSSE(event);
  if (life !== '' && isDurableEvent(event)) {
    text = `id: ${event.seq}-${life}${text.slice(text.indexOf('\n'))}`;
  }
  const bytes = utf8.encode(text);
  encoded.set(event, { life, bytes });
  return bytes;
}

/**
 * The bytes of the batches encoded lately: followers woken together get equal batches (the
 * same events, in the same order), which are joined once and the bytes shared by them all,
 * whatever their size — a fan-out that fell behind hands every follower the same large
 * batch, and copying it per follower made the next wake-up slower still (a loaded run of
 * 1,000 followers fell 17 s behind). A batch past `sharedBatchBytes` (a catch-up, or one
 * follower's backlog) is forgotten once the current task is over: every follower woken
 * with it was woken in that task.
 */
const recent: { events: readonly CallfoldEvent[]; life: string; bytes: Uint8Array }[] = [];
const recentKept = 4;
const sharedBatchBytes = 64 * 1024;

function sameEvents(a: readonly CallfoldEvent[], b: readonly CallfoldEvent[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function encodeBatch(events: readonly CallfoldEvent[], life: string): Uint8Array {
  if (events.length === 1) return encode(events[0] as CallfoldEvent, life);
  for (const batch of recent) {
    if (batch.life === life && sameEvents(batch.events, events)) return batch.bytes;
  }
  let length = 0;
  const chunks = events.map((event) => {
    const bytes = encode(event, life);
    length += bytes.byteLength;
    return bytes;
  });
  const bytes = concat(chunks, length);
  const entry = { events, life, bytes };
  recent.unshift(entry);
  if (recent.length > recentKept) recent.pop();
  if (length > sharedBatchBytes) {
    setTimeout(() => {
      const at = recent.indexOf(entry);
      if (at !== -1) recent.splice(at, 1);
    }, 0);
  }
  return bytes;
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}

/**
 * Where a host adapter that can write bytes itself takes a follower's body: `toNodeListener`
 * writes each chunk to the socket as it is ready, with no stream read per chunk. A key on
 * the body stream (the same object as `response.body`); a body taken this way is not read
 * as a stream.
 */
export const directBody: unique symbol = Symbol.for('callfold.directBody');

/** A connection a follower's bytes are written to directly. */
export interface ByteSink {
  /** Takes a chunk; `false` when the connection's buffer is full (wait for `onDrain`). */
  write(chunk: Uint8Array): boolean;
  /** Calls back once when the connection takes more, or closes. */
  onDrain(callback: () => void): void;
  /** Every chunk is written: the response ends. */
  end(): void;
}

/** Starts writing the body to `sink`; returns what stops it (the connection closed). */
export type DirectBody = (sink: ByteSink) => () => void;

/** A body stream that may be taken directly (`directBody`). */
export type FollowerBody = ReadableStream<Uint8Array> & { readonly [directBody]?: DirectBody };

/**
 * One follower's output: what the store hands out is encoded into pending bytes, which go
 * to the connection as one chunk whenever it takes more. A slow connection is seen as
 * pending bytes growing; past `maxBufferBytes` the follow stops and the output ends after
 * the pending bytes: the client resumes with `Last-Event-ID`. A comment line (`: ping`)
 * goes out after `heartbeatMs` without a write.
 */
class FollowerOutput implements ClosableFollower {
  /** Called once the response has ended (every byte out, or cancelled). */
  #onEnded: (() => void)[] = [];
  #over = false;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #ending = false;
  #failed: unknown;
  #wrote = false;
  #heartbeat: ReturnType<typeof setTimeout> | undefined;
  /** Stream mode: the pull waiting for bytes. */
  #waiting: (() => void) | undefined;
  /** Direct mode: the connection, and whether it waits for a drain. */
  #sink: ByteSink | undefined;
  #blocked = false;
  #stopFollow: () => void;
  readonly #follow: AsyncIterable<CallfoldEvent>;
  readonly #options: FollowerStreamOptions;

  constructor(follow: AsyncIterable<CallfoldEvent>, options: FollowerStreamOptions) {
    this.#follow = follow;
    this.#options = options;
    this.#stopFollow = () => {};
  }

  /** Writes to `sink` from now on, instead of being read as a stream. */
  attach(sink: ByteSink): void {
    this.#sink = sink;
    this.#flush();
  }

  start(): void {
    this.#options.followers?.open.add(this);
    this.#beat();
    const follow = this.#follow;
    if (follow instanceof FollowerQueue) {
      this.#stopFollow = () => follow.cancel();
      const encode = this.#encoder();
      follow.listen({
        batch: (events) => this.#add(encode(events)),
        end: (error) => this.#end(error),
      });
      return;
    }
    const batches = isBatchedFollow(follow)
      ? follow.batches()
      : (async function* () {
          for await (const event of follow) yield [event];
        })();
    this.#stopFollow = () => void batches.return?.();
    const encode = this.#encoder();
    void (async () => {
      let failed: unknown;
      try {
        for (;;) {
          const next = await batches.next();
          if (next.done || this.#ending) break;
          if (next.value.length > 0) this.#add(encode(next.value));
        }
      } catch (error) {
        failed = error;
      }
      this.#end(failed);
    })();
  }

  #encoder(): (events: readonly CallfoldEvent[]) => Uint8Array {
    const life = this.#options.life ?? '';
    return this.#options.encode ?? ((events) => encodeBatch(events, life));
  }

  #add(bytes: Uint8Array): void {
    if (this.#ending) return;
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.byteLength;
    this.#wrote = true;
    if (this.#pendingBytes > this.#options.maxBufferBytes && !this.#ending) {
      if (this.#options.followers) this.#options.followers.followersCut++;
      this.#stop();
    }
    this.#flush();
  }

  #end(error: unknown): void {
    if (error !== undefined) this.#failed = error;
    this.#stop();
    this.#flush();
  }

  /** Ends the follow; the pending bytes still go out. */
  #stop(): void {
    if (this.#ending) return;
    this.#ending = true;
    clearTimeout(this.#heartbeat);
    this.#stopFollow();
  }

  /** The connection closed or the stream was cancelled: nothing more is written. */
  cancel(): void {
    this.#stop();
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#sink = undefined;
    this.#flush();
    this.#ended();
  }

  /**
   * A graceful end (the handler's `close()`): the follow stops, and after what is pending a
   * `retry:` line tells the client how soon to reconnect (to another instance).
   */
  close(retryMs: number): Promise<void> {
    if (this.#over) return Promise.resolve();
    const ended = new Promise<void>((resolve) => this.#onEnded.push(resolve));
    if (!this.#ending) {
      this.#stop();
      const line = utf8.encode(`retry: ${Math.max(0, Math.round(retryMs))}\n\n`);
      this.#pending.push(line);
      this.#pendingBytes += line.byteLength;
      this.#flush();
    }
    return ended;
  }

  /** The response is over: it leaves the handler's followers. */
  #ended(): void {
    if (this.#over) return;
    this.#over = true;
    this.#options.followers?.open.delete(this);
    for (const resolve of this.#onEnded.splice(0)) resolve();
  }

  #beat(): void {
    this.#heartbeat = setTimeout(() => {
      if (this.#ending) return;
      if (!this.#wrote) this.#add(ping);
      this.#wrote = false;
      this.#beat();
    }, this.#options.heartbeatMs);
  }

  /** Everything pending, as one chunk (undefined: nothing pending). */
  take(): Uint8Array | undefined {
    if (this.#pending.length === 0) return undefined;
    const chunk = concat(this.#pending, this.#pendingBytes);
    if (this.#options.followers) this.#options.followers.bytesSent += chunk.byteLength;
    this.#pending = [];
    this.#pendingBytes = 0;
    return chunk;
  }

  /** Whether nothing more will come: the stream closes, the response ends. */
  get done(): boolean {
    return this.#ending && this.#pending.length === 0;
  }

  #flush(): void {
    const sink = this.#sink;
    if (!sink) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      resolve?.();
      return;
    }
    if (this.#blocked) return;
    const chunk = this.take();
    if (chunk && !sink.write(chunk)) {
      this.#blocked = true;
      sink.onDrain(() => {
        this.#blocked = false;
        this.#flush();
      });
      return;
    }
    if (this.done) {
      this.#sink = undefined;
      this.#warnFailed();
      sink.end();
      this.#ended();
    }
  }

  #warnFailed(): void {
    // A store failure ends the response like an overflow: the client reconnects.
    if (this.#failed !== undefined) console.warn('callfold: follow failed', this.#failed);
  }

  /** Stream mode: the next chunk, or undefined once done. */
  async read(): Promise<Uint8Array | undefined> {
    while (this.#pending.length === 0 && !this.#ending) {
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
      });
    }
    const chunk = this.take();
    if (!chunk) {
      this.#warnFailed();
      this.#ended();
    }
    return chunk;
  }
}

/**
 * One follower's SSE body: a byte stream (high-water mark 0: bytes wait in the output
 * until the connection asks for more, each read takes all of them as one chunk), which a
 * host adapter may instead take directly (`directBody`).
 */
export function followerStream(
  follow: AsyncIterable<CallfoldEvent>,
  options: FollowerStreamOptions,
): FollowerBody {
  const output = new FollowerOutput(follow, options);
  const stream = new ReadableStream<Uint8Array>(
    {
      start() {
        output.start();
      },
      async pull(controller) {
        const chunk = await output.read();
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
      cancel() {
        output.cancel();
      },
    },
    { highWaterMark: 0 },
  );
  const direct: DirectBody = (sink) => {
    output.attach(sink);
    return () => output.cancel();
  };
  Object.defineProperty(stream, directBody, { value: direct });
  return stream as FollowerBody;
}
