/**
 * AG-UI's compact events (`TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK`, `REASONING_MESSAGE_CHUNK`)
 * expanded into start/content/end the way `@ag-ui/client` expands them (its chunk transform,
 * `transformChunks`, in `@ag-ui/client` 1.0):
 *
 * 1. Each lane (the parent agent, or one `subagentRunId`) has at most one open chunk stream.
 *    A chunk continues it when it is of the same kind and names no id or the same id;
 *    otherwise the open stream is ended and a new one started, which needs an id (and, for a
 *    tool call, a `toolCallName`). So a chunk for an id that was closed (by a chunk of
 *    another id or kind in between) starts a new message or call with that id again.
 * 2. A chunk without an id goes to its `subagentRunId`'s lane, else the parent's when that
 *    has a stream of its kind open, else the only lane that has; two such lanes make it
 *    ambiguous (malformed).
 * 3. An explicit event (`TEXT_MESSAGE_*`, `TOOL_CALL_*`, `STEP_*`, `REASONING_*`) ends the
 *    open chunk stream of its lane first; `RUN_*` and `MESSAGES_SNAPSHOT` end every lane's.
 * 4. A chunk that the client would refuse (no id to start with, no name for a new call, a
 *    name that contradicts the open call's) is reported as malformed and skipped.
 */
export type ChunkKind = 'text' | 'tool' | 'reasoning';

/** Where expanded chunks go: the same handlers the explicit events call. */
export interface ChunkTarget {
  start(kind: ChunkKind, id: string, chunk: Record<string, unknown>): void;
  content(kind: ChunkKind, id: string, delta: string): void;
  end(kind: ChunkKind, id: string): void;
}

interface OpenStream {
  readonly kind: ChunkKind;
  readonly id: string;
  readonly name: unknown;
}

const parent = '';

export class ChunkLanes {
  readonly #lanes = new Map<string, OpenStream>();
  readonly #target: ChunkTarget;
  readonly #malformed: (message: string, chunk: unknown) => void;

  constructor(target: ChunkTarget, malformed: (message: string, chunk: unknown) => void) {
    this.#target = target;
    this.#malformed = malformed;
  }

  /** How many lanes have a stream open (0 on the hot path of explicit events). */
  get size(): number {
    return this.#lanes.size;
  }

  /** Ends the open stream of the lane an explicit event belongs to. */
  closeLaneOf(event: Record<string, unknown>): void {
    this.#close(laneOf(event.subagentRunId));
  }

  /** Ends every open stream (a run boundary, a snapshot, the end of the source). */
  closeAll(): void {
    for (const lane of [...this.#lanes.keys()]) this.#close(lane);
  }

  chunk(kind: ChunkKind, chunk: Record<string, unknown>): void {
    const given = kind === 'tool' ? chunk.toolCallId : chunk.messageId;
    const id = typeof given === 'string' && given !== '' ? given : undefined;
    const lane = this.#laneFor(kind, id, chunk.subagentRunId);
    if (lane === undefined) {
      this.#malformed(`ambiguous ${kind} chunk: no id and several lanes open`, chunk);
      return;
    }
    const open = this.#lanes.get(lane);
    let current: string;
    if (open !== undefined && open.kind === kind && (id === undefined || id === open.id)) {
      const name = chunk.toolCallName;
      if (kind === 'tool' && typeof name === 'string' && name !== open.name) {
        this.#malformed(`tool call chunk renames the open call ${open.id}`, chunk);
        return;
      }
      current = open.id;
    } else {
      if (id === undefined) {
        this.#malformed(`the first ${kind} chunk of a stream must have an id`, chunk);
        return;
      }
      const name = chunk.toolCallName;
      if (kind === 'tool' && (typeof name !== 'string' || name === '')) {
        this.#malformed('the first tool call chunk must have a toolCallName', chunk);
        return;
      }
      this.#close(lane);
      this.#lanes.set(lane, { kind, id, name });
      this.#target.start(kind, id, chunk);
      current = id;
    }
    if (typeof chunk.delta === 'string') this.#target.content(kind, current, chunk.delta);
  }

  #laneFor(kind: ChunkKind, id: string | undefined, subagent: unknown): string | undefined {
    if (id !== undefined) {
      for (const [lane, open] of this.#lanes) {
        if (open.kind === kind && open.id === id) return lane;
      }
      return laneOf(subagent);
    }
    if (typeof subagent === 'string') return laneOf(subagent);
    if (this.#lanes.get(parent)?.kind === kind) return parent;
    let found: string | undefined;
    let count = 0;
    for (const [lane, open] of this.#lanes) {
      if (open.kind !== kind) continue;
      found = lane;
      count += 1;
    }
    if (count > 1) return undefined;
    return found ?? parent;
  }

  #close(lane: string): void {
    const open = this.#lanes.get(lane);
    if (open === undefined) return;
    this.#lanes.delete(lane);
    this.#target.end(open.kind, open.id);
  }
}

function laneOf(subagent: unknown): string {
  return typeof subagent === 'string' ? `s:${subagent}` : parent;
}
