import {
  Observable,
  type OperatorFunction,
  type SchedulerLike,
  type Subscription,
  type TeardownLogic,
} from 'rxjs';
import { Assembler, type AssemblerOptions } from '../conversation/assembler.js';
import type { Conversation } from '../conversation/conversation.js';
import { DirectEvents, type EventSink } from '../direct/direct-events.js';
import type { BlockEndEvent, CallfoldEvent } from '../events/types.js';
import { EventError } from '../events/validate.js';
import type { KindedNode } from '../groups/builder.js';
import type { AssembleInput, AssemblerCommand } from './assembler-command.js';
import { DirectFold } from './direct-fold.js';
import { publicationScheduler } from './publication-scheduler.js';

export interface AssembleOptions<Extra extends KindedNode = never> extends AssemblerOptions<Extra> {
  /**
   * Where publications are scheduled: at most one per task this scheduler runs. Default:
   * `publicationScheduler()`, an animation frame in a browser window, a zero-delay timer elsewhere.
   */
  readonly scheduler?: SchedulerLike;
  /**
   * Called instead of failing when an input is malformed (`push` or `prepend` threw an
   * `EventError`): that input, the whole batch or page, is skipped and folding goes on. An
   * error thrown by `onInvalid` fails the stream. Default: none, the stream fails.
   */
  readonly onInvalid?: (error: EventError, input: unknown) => void;
}

/**
 * Folds a stream of events into Conversations: one Assembler per subscription.
 *
 * Invariants:
 * 1. Each input is folded when it arrives: an event or a batch (`CallfoldEvent[]`) at the
 *    live end, a `PrependCommand` as an older history page, a `ReconnectCommand` as the
 *    withdrawal of every live stream event (see `prependCommand`, `reconnectCommand`).
 * 2. Publication is deferred to the scheduler: however many inputs arrive, at most one
 *    `publish()` per scheduled task, and a Conversation is emitted only when it is not the
 *    object published before (structural sharing makes "same object" mean "nothing
 *    changed"). The empty Conversation of a new Assembler is that first baseline: nothing
 *    is emitted until something shows (add `startWith` for an initial empty render).
 * 3. When the source completes, pending inputs are published at once, then the stream
 *    completes. When the source fails, pending inputs are published, then the error is
 *    passed on.
 * 4. A malformed input (an `EventError` from `push` or `prepend`: a bad event anywhere in a
 *    batch, a stream event in a history page) folds nothing of that input; what was folded
 *    before it is published, then the stream fails with the `EventError`, unless `onInvalid`
 *    is given.
 * 5. Unsubscribing cancels the scheduled publication and drops the Assembler: no work is
 *    left on the scheduler.
 * 6. Piped straight from an adapter (`fromAnthropicMessages(stream).pipe(assemble())`), the
 *    adapter's events are folded as it builds them (see `DirectFold`): the deltas of one block
 *    that arrive between two publications reach the Definitions as the adapter's batches (one
 *    delta per 256 fragments, not copied again; also when parallel calls interleave), each block's
 *    deltas are validated once, and `now` is read once per provider chunk. What is published,
 *    and when, is what the ordinary path publishes.
 *
 * `AssemblerOptions` (`definitions`, `groups`, `now`, `onError`) pass through to the Assembler.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { assemble, type CallfoldEvent } from 'callfold';
 *
 * const events: CallfoldEvent[] = [
 *   { type: 'stream/tool-call-delta', attemptId: 'a1', block: 0, callId: 'c1', name: 'Read', args: '{"file_path":' },
 *   { type: 'stream/tool-call-delta', attemptId: 'a1', block: 0, callId: 'c1', args: '"README.md"}' },
 * ];
 * from(events).pipe(assemble()).subscribe((conversation) => {
 *   console.log(conversation.tools.get('c1')?.stage); // 'preparing', once for both events
 * });
 * ```
 */
export function assemble<Extra extends KindedNode = never>(
  options: AssembleOptions<Extra> = {},
): OperatorFunction<AssembleInput, Conversation<Extra>> {
  return (source) =>
    new Observable<Conversation<Extra>>((subscriber) => {
      const scheduler = options.scheduler ?? publicationScheduler();
      // An adapter's events are folded as it builds them: see DirectFold.
      const start = source instanceof DirectEvents ? source.start : undefined;
      const direct = start ? new DirectFold<Extra>(options) : undefined;
      let assembler: Assembler<Extra> | null = direct ?? new Assembler<Extra>(options);
      // The empty Conversation is the baseline, not a change: it is never emitted.
      let last = assembler.publish();
      let scheduled = false;
      let task: Subscription | null = null;
      /** Folds what the direct path holds (see DirectFold); nothing on the ordinary path. */
      let drain = () => {};

      const cancel = () => {
        scheduled = false;
        task?.unsubscribe();
        task = null;
      };
      /** Publishes now; false when publishing failed the stream. */
      const flush = (): boolean => {
        cancel();
        if (!assembler) return false;
        let conversation: Conversation<Extra>;
        try {
          drain();
          conversation = assembler.publish();
        } catch (error) {
          subscriber.error(error);
          return false;
        }
        if (conversation !== last) {
          last = conversation;
          subscriber.next(conversation);
        }
        return true;
      };
      const schedule = () => {
        if (scheduled) return;
        scheduled = true;
        const work = scheduler.schedule(() => {
          task = null;
          if (scheduled) flush();
        });
        // A scheduler may run the work at once (queueScheduler outside a queue task).
        if (scheduled) task = work;
      };
      const fail = (error: unknown) => {
        if (flush()) subscriber.error(error);
      };

      /** An input failed to fold: `onInvalid` skips it, anything else fails the stream. */
      const reject = (error: unknown, input: unknown) => {
        if (!(error instanceof EventError && options.onInvalid)) return fail(error);
        try {
          options.onInvalid(error, input);
        } catch (thrown) {
          fail(thrown);
        }
      };

      let inner: TeardownLogic;
      if (start && direct) {
        drain = () => direct.drain();
        /** Folds one whole event; a failure goes to `reject` with that event. */
        const folding =
          <E>(fold: (event: E) => void) =>
          (event: E) => {
            if (!assembler) return;
            try {
              fold(event);
            } catch (error) {
              return reject(error, event);
            }
            schedule();
          };
        const sink: EventSink = {
          get closed() {
            return assembler === null || subscriber.closed;
          },
          chunk: () => direct.chunk(),
          next: folding((event: CallfoldEvent) => direct.event(event)),
          continuation: (block, fragment) => {
            if (!assembler) return;
            try {
              direct.continuation(block, fragment);
            } catch (error) {
              return reject(error, block.delta(fragment));
            }
            schedule();
          },
          joinedEnd: folding((event: BlockEndEvent) => direct.joinedEnd(event)),
          error: (error) => {
            if (assembler) fail(error);
          },
          complete: () => {
            if (assembler && flush()) subscriber.complete();
          },
        };
        inner = start(sink);
      } else {
        const subscription = source.subscribe({
          next: (input) => {
            if (!assembler) return;
            try {
              fold(assembler, input);
            } catch (error) {
              return reject(error, input);
            }
            schedule();
          },
          error: fail,
          complete: () => {
            if (flush()) subscriber.complete();
          },
        });
        inner = () => subscription.unsubscribe();
      }
      return () => {
        cancel();
        assembler = null;
        if (typeof inner === 'function') inner();
        else inner?.unsubscribe();
      };
    });
}

function fold<Extra extends KindedNode>(assembler: Assembler<Extra>, input: AssembleInput): void {
  if (!isCommand(input)) {
    assembler.push(input);
  } else if (input.type === 'connection/reconnect') {
    assembler.reconnect();
  } else if (Array.isArray(input.events)) {
    assembler.prepend(input.events);
  } else {
    throw new EventError('events', 'history/prepend command: "events" must be an array');
  }
}

/** Anything else goes to `push`, which rejects what is not an event. */
function isCommand(input: AssembleInput): input is AssemblerCommand {
  try {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
    const { type } = input as { type?: unknown };
    return type === 'history/prepend' || type === 'connection/reconnect';
  } catch {
    // An exotic object (a revoked Proxy) is no command: `push` reports it as an EventError.
    return false;
  }
}
