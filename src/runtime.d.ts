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
