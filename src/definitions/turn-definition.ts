import type { Definition } from '../assembler/definition.js';
import type { Match } from '../assembler/match.js';

/**
 * The published view of one user turn: where it starts in the log, and the user's prompt
 * when its `turn/start` carried one. Frozen. A `<tool-timeline>` draws it as the turn's
 * separator.
 *
 * A turn whose `turn/start` is outside the loaded window of history has no node (its
 * `turn/end` alone opens nothing); an older page that brings the start adds it.
 */
export interface TurnNode {
  readonly kind: 'turn';
  /** The turn's `turnId`. */
  readonly id: string;
  /** The user's message (`turn/start.prompt`), plain text; null when none was given. */
  readonly prompt: string | null;
  /** `'ended'` once the turn's `turn/end` is folded. */
  readonly stage: 'running' | 'ended';
  /** When the turn started (ms since the Unix epoch): the event's `at`, else when it arrived. */
  readonly startedAt: number;
}

interface TurnState {
  readonly turnId: string;
  prompt: string | null;
  ended: boolean;
  startedAt: number;
}

function fold(state: TurnState, match: Match): TurnState {
  const { event } = match;
  if (event.type === 'turn/end') state.ended = true;
  // A repeated start (another seq, same turnId) may bring the prompt late; the last one given wins.
  else if (event.type === 'turn/start' && event.prompt !== undefined) state.prompt = event.prompt;
  return state;
}

/**
 * The Turn Definition: one Context per `turnId`, opened by `turn/start` (which may carry the
 * user's `prompt`) and marked ended by `turn/end`. Not among `defaultDefinitions`, whose
 * Conversation holds assistant responses and tool groups only: fold with
 * `definitionsWithTurns` (as `<tool-timeline>` does with its `source`) to get `TurnNode`
 * items, each before the items of its turn. A turn node ends a run of tools, so a group
 * never spans two turns.
 *
 * @example
 * ```ts
 * import { Assembler, definitionsWithTurns, type TurnNode } from 'callfold';
 *
 * const assembler = new Assembler<TurnNode>({ definitions: definitionsWithTurns });
 * assembler.push({ type: 'turn/start', seq: 1, turnId: 't1', prompt: 'Fix the failing test' });
 * assembler.publish().items[0]; // { kind: 'turn', id: 't1', prompt: 'Fix the failing test', … }
 * ```
 */
export const turnDefinition: Definition<TurnState, TurnNode> = {
  name: 'turn',

  match(event, emit) {
    if (event.type === 'turn/start') emit(event.turnId, 'start');
    else if (event.type === 'turn/end') emit(event.turnId, 'update');
  },

  start(match, at, key) {
    return fold({ turnId: key, prompt: null, ended: false, startedAt: at }, match);
  },

  update: fold,

  build(state, previous) {
    const stage = state.ended ? 'ended' : 'running';
    if (
      previous &&
      previous.prompt === state.prompt &&
      previous.stage === stage &&
      previous.startedAt === state.startedAt
    ) {
      return previous;
    }
    return Object.freeze({
      kind: 'turn',
      id: state.turnId,
      prompt: state.prompt,
      stage,
      startedAt: state.startedAt,
    });
  },
};
