import type { CallfoldEvent, SessionEvent } from '../events/types.js';

/** Places an older page of durable events before everything held (`Assembler.prepend`). */
export interface PrependCommand {
  readonly type: 'history/prepend';
  readonly events: readonly SessionEvent[];
}

/**
 * Withdraws every live stream event held (`Assembler.reconnect`): send it when a new
 * connection starts, before the durable events it missed and the replay of the live attempt.
 */
export interface ReconnectCommand {
  readonly type: 'connection/reconnect';
}

/**
 * What `assemble()` does besides taking events at the live end. Commands travel in the same
 * stream as the events, so their order relative to the events is the order of the stream:
 * a reconnection withdraws exactly the stream events that came before it. Their `type`s
 * are no event's type.
 */
export type AssemblerCommand = PrependCommand | ReconnectCommand;

/** What `assemble()` takes: an event, a batch of events, or a command. */
export type AssembleInput = CallfoldEvent | readonly CallfoldEvent[] | AssemblerCommand;

/**
 * The command that prepends `events`, an older history page (durable events only).
 *
 * @example
 * ```ts
 * import { map, merge } from 'rxjs';
 * import { assemble, prependCommand } from 'callfold';
 * merge(live$, olderPages$.pipe(map(prependCommand))).pipe(assemble());
 * ```
 */
export function prependCommand(events: readonly SessionEvent[]): PrependCommand {
  return { type: 'history/prepend', events };
}

const reconnect: ReconnectCommand = Object.freeze({ type: 'connection/reconnect' });

/**
 * The command that withdraws every live stream event held, for the start of a new
 * connection (one shared frozen object).
 *
 * @example
 * ```ts
 * import { concat, defer, of, repeat } from 'rxjs';
 * import { assemble, decodeSSE, reconnectCommand } from 'callfold';
 * // Each (re)connection first withdraws the stream events of the one before.
 * defer(() => concat(of(reconnectCommand()), decodeSSE(fetch(url))))
 *   .pipe(repeat({ delay: 1000 }), assemble());
 * ```
 */
export function reconnectCommand(): ReconnectCommand {
  return reconnect;
}
