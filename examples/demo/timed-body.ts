/**
 * A response body written chunk by chunk as a replay reaches each chunk's time, and read by
 * an adapter. It hands over one chunk per read (`highWaterMark: 0`: nothing is pulled ahead),
 * and reports each chunk's recorded time just before the reader gets it, so that what the
 * reader emits while handling that chunk can be stamped with the time it was sent, however
 * fast the replay runs.
 */
export class TimedBody {
  readonly stream: ReadableStream<Uint8Array>;
  readonly #queue: { at: number; bytes: Uint8Array }[] = [];
  #closedAt: number | undefined;
  #wake: (() => void) | undefined;

  /** `onRead(at)` runs as each chunk is handed to the reader, and as the reader meets the end. */
  constructor(onRead: (at: number) => void) {
    this.stream = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          while (this.#queue.length === 0 && this.#closedAt === undefined) {
            await new Promise<void>((resolve) => (this.#wake = resolve));
          }
          const chunk = this.#queue.shift();
          if (chunk) {
            onRead(chunk.at);
            controller.enqueue(chunk.bytes);
          } else {
            onRead(this.#closedAt as number);
            controller.close();
          }
        },
        cancel: () => this.close(this.#closedAt ?? 0),
      },
      { highWaterMark: 0 },
    );
  }

  /** Sends a chunk (sent at `at`, in recorded ms). */
  write(at: number, bytes: Uint8Array): void {
    this.#queue.push({ at, bytes });
    this.#wakeReader();
  }

  /** Ends the body (at `at`, in recorded ms) once the chunks written are read. */
  close(at: number): void {
    this.#closedAt ??= at;
    this.#wakeReader();
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
