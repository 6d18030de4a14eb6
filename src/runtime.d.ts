/**
 * The few host globals the core uses beyond ECMAScript, declared once so that src/ compiles
 * without the DOM or Node type libraries. Each exists in browsers, Node >= 20 and Deno.
 */
declare function queueMicrotask(callback: () => void): void;
declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare const console: {
  warn(...data: unknown[]): void;
  log(...data: unknown[]): void;
  error(...data: unknown[]): void;
};

// WHATWG Encoding and Streams, for the SSE codec (src/wire/sse*.ts): the subset it uses,
// shaped like lib.dom's declarations so that the two merge where both are present.
interface TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
interface TextDecodeOptions {
  stream?: boolean;
}
interface TextDecoder {
  decode(input?: ArrayBufferView | ArrayBuffer, options?: TextDecodeOptions): string;
}
declare var TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};
// biome-ignore lint/suspicious/noExplicitAny: the default must match lib.dom's for the declarations to merge.
interface ReadableStream<R = any> {
  readonly locked: boolean;
  cancel(reason?: unknown): Promise<void>;
  getReader(): ReadableStreamDefaultReader<R>;
}
// biome-ignore lint/suspicious/noExplicitAny: as above.
interface ReadableStreamDefaultReader<R = any> {
  read(): Promise<{ done: false; value: R } | { done: true; value: R | undefined }>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
}
// biome-ignore lint/suspicious/noExplicitAny: as above.
interface ReadableStreamDefaultController<R = any> {
  readonly desiredSize: number | null;
  close(): void;
  enqueue(chunk?: R): void;
  error(e?: unknown): void;
}
declare var ReadableStream: {
  prototype: ReadableStream;
  new <R>(
    source: {
      start?: (controller: ReadableStreamDefaultController<R>) => void | PromiseLike<void>;
      pull?: (controller: ReadableStreamDefaultController<R>) => void | PromiseLike<void>;
      cancel?: (reason?: unknown) => void | PromiseLike<void>;
    },
    strategy?: { highWaterMark?: number },
  ): ReadableStream<R>;
};
