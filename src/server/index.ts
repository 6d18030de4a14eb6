/**
 * `callfold/server`: the `SessionStore` contract and the memory store, the HTTP handler
 * that serves and follows sessions (`sessionHandler`, `toNodeListener` for Node's `http`),
 * and `recordAttempt`. Node ≥ 20, Deno, Bun and edge runtimes.
 *
 * @module callfold/server
 */
export { appendRuns } from './append-runs.js';
export type { DurableLog } from './durable-log.js';
export type { FanOutMs } from './fan-out-pacer.js';
export type { LocalStoreOptions } from './local-store.js';
export { type MemoryStoreOptions, memoryStore } from './memory-store.js';
export { type NodeRequestLike, type NodeResponseLike, toNodeListener } from './node-listener.js';
export { type RecordAttemptOptions, recordAttempt } from './record-attempt.js';
export {
  type SessionHandler,
  type SessionHandlerOptions,
  sessionHandler,
} from './session-handler.js';
export { assertSessionId, isSessionId } from './session-id.js';
export type {
  AbortSignalLike,
  FollowOptions,
  HandlerMetrics,
  PageOptions,
  SessionStore,
  StoreMetrics,
  UnnumberedEvent,
} from './session-store.js';
export type { StoreClock } from './store-clock.js';
export type {
  HostRequest,
  HostResponse,
  WebHeaders,
  WebRequest,
  WebResponse,
} from './web.js';
