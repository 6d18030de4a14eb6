import type { Observable } from 'rxjs';
import { type CallfoldEvent, isDurableEvent, type StreamEvent } from '../events/types.js';
import { appendRuns } from './append-runs.js';
import type { AbortSignalLike, SessionStore } from './session-store.js';

export interface RecordAttemptOptions {
  /** How often live attempts' leases are renewed while the source is open. Default: the store's leaseMs / 3. */
  readonly renewMs?: number;
  /**
   * Stops recording when aborted (a graceful restart): the source is unsubscribed, what it
   * gave is written, every attempt it left open is settled, and the promise resolves.
   */
  readonly signal?: AbortSignalLike;
}

/**
 * Pipes an adapter's events into a store and resolves when they are all written.
 *
 * 1. Durable events are appended in order (the store renumbers them: their own `seq` and
 *    `at` are dropped); stream events are made live (`appendRuns`). Everything that arrives
 *    while a write is in flight goes in the next write, so a fast source costs one store
 *    call per run of one family, not one per event.
 * 2. While the source is open, the lease of every attempt it has streamed and not settled is
 *    renewed every `renewMs`; if this process dies, the store settles them once the lease
 *    runs out.
 * 3. When the source completes or fails, every attempt it left unsettled is settled (its
 *    preparing tools disappear), then the promise resolves, or rejects with the source's
 *    error. A store failure unsubscribes the source, settles what it can, and rejects.
 *    Aborting `signal` unsubscribes the source, settles, and resolves.
 *
 * @example
 * ```ts
 * import { fromAnthropicMessages, createSession } from 'callfold';
 * import { recordAttempt } from 'callfold/server';
 * await recordAttempt(store, sessionId, fromAnthropicMessages(stream, { session }));
 * ```
 */
export function recordAttempt(
  store: SessionStore,
  sessionId: string,
  source: Observable<CallfoldEvent>,
  options: RecordAttemptOptions = {},
): Promise<void> {
  const renewMs = options.renewMs ?? store.leaseMs / 3;
  return new Promise<void>((resolve, reject) => {
    const open = new Set<string>();
    let pending: CallfoldEvent[] = [];
    let writing: Promise<void> | undefined;
    let failure: { error: unknown } | undefined;
    let finished = false;
    let renewal: ReturnType<typeof setTimeout> | undefined;

    const renew = () => {
      renewal = setTimeout(() => {
        if (open.size > 0) store.renew(sessionId, [...open]).catch(() => {});
        renew();
      }, renewMs);
    };

    const write = async (events: readonly CallfoldEvent[]) => {
      for (const event of events) {
        if (isDurableEvent(event)) continue;
        if (event.type === 'stream/settle') open.delete(event.attemptId);
        else open.add(event.attemptId);
      }
      await appendRuns(store, sessionId, events);
    };

    const drain = (): Promise<void> => {
      writing ??= (async () => {
        while (pending.length > 0 && !failure) {
          const events = pending;
          pending = [];
          try {
            await write(events);
          } catch (error) {
            failure = { error };
            subscription?.unsubscribe();
            void finish();
          }
        }
        writing = undefined;
      })();
      return writing;
    };

    const stop = () => {
      subscription?.unsubscribe();
      void finish();
    };
    const finish = async (sourceError?: { error: unknown }) => {
      if (finished) return;
      finished = true;
      options.signal?.removeEventListener('abort', stop);
      clearTimeout(renewal);
      await drain();
      const settles: StreamEvent[] = [...open].map((attemptId) => ({
        type: 'stream/settle',
        attemptId,
      }));
      open.clear();
      if (settles.length > 0) await store.live(sessionId, settles).catch(() => {});
      const error = failure ?? sourceError;
      if (error) reject(error.error);
      else resolve();
    };

    renew();
    let subscription: { unsubscribe(): void } | undefined;
    subscription = source.subscribe({
      next: (event) => {
        if (finished) return;
        pending.push(event);
        void drain();
      },
      error: (error: unknown) => void finish({ error }),
      complete: () => void finish(),
    });
    if (finished) subscription.unsubscribe();
    else if (options.signal?.aborted) stop();
    else options.signal?.addEventListener('abort', stop, { once: true });
  });
}
