import type { ToolCallDeltaEvent } from '../../../src/events/types.js';
import type { ScriptAttempt } from '../session-script.js';
import { decoded, type Leaf, leavesOf, safeCut } from './json-leaves.js';
import {
  cutCallOf,
  demoResponse,
  type ResponseConstants,
  sseMessage,
  stopReasonOf,
  type TimedChunk,
} from './timed-chunk.js';

/**
 * A recorded response as Vertex AI's `streamGenerateContent?alt=sse` streams it with
 * `streamFunctionCallArguments` on: `data: {GenerateContentResponse}` lines (no event names,
 * no `[DONE]`), each with one part of candidate 0, the last with `finishReason`. A cut
 * response stops before `finishReason`.
 *
 * - Text is `{ text }`, reasoning `{ text, thought: true }`.
 * - A call opens with `functionCall { id, name, willContinue: true }`; its arguments follow
 *   value by value as `partialArgs` (`{ jsonPath, stringValue | numberValue | boolValue |
 *   nullValue, willContinue }`), each sent when the recorded argument text reached it: a long
 *   string is sent in pieces at the times its text arrived (`willContinue: true` until its
 *   last piece), so the replayed call streams field by field. An empty `functionCall: {}`
 *   closes the call.
 * - Gemini has no free-form tools: a free-form call (`input: 'text'`) is a JSON tool whose
 *   arguments are `{ "input": <text> }`, its text streamed as the `$.input` string.
 * - Gemini's provider-run tools are not web searches as recorded: a provider-run call
 *   (`executor: 'provider'`) and its result are left out.
 * - A response its token limit cut ends with `finishReason: 'MAX_TOKENS'`, else `STOP`.
 *
 * Gemini streams one call at a time, so calls recorded in parallel are sent one after the
 * other: the events keep their time slots and are reordered by block.
 */
export function encodeGemini(
  attempt: ScriptAttempt,
  constants: ResponseConstants = demoResponse,
): TimedChunk[] {
  const out: TimedChunk[] = [];
  const send = (at: number, part: Record<string, unknown>, finishReason?: string) =>
    out.push({
      at,
      data: sseMessage({
        candidates: [
          {
            content: { role: 'model', parts: [part] },
            ...(finishReason === undefined ? {} : { finishReason }),
          },
        ],
        modelVersion: constants.model,
        responseId: attempt.messageId,
      }),
    });
  const provider = new Set(
    attempt.stream.flatMap(({ event }) =>
      event.type === 'stream/tool-call-delta' && event.executor === 'provider' ? [event.block] : [],
    ),
  );
  /** A call the token limit cut gets no closing part: its arguments stop where they were cut. */
  const cut = cutCallOf(attempt);
  const slots = attempt.stream.map(({ at }) => at);
  const byBlock = [...attempt.stream].sort((a, b) => a.event.block - b.event.block);
  let call: CallArguments | undefined;
  byBlock.forEach(({ event }, i) => {
    const at = slots[i] as number;
    if (provider.has(event.block)) return;
    switch (event.type) {
      case 'stream/text-delta':
        send(at, event.reasoning ? { text: event.text, thought: true } : { text: event.text });
        break;
      case 'stream/tool-call-delta': {
        if (event.name !== undefined) {
          call = new CallArguments(attempt, event);
          send(at, { functionCall: { id: event.callId, name: event.name, willContinue: true } });
        }
        const partialArgs = call?.next(event.args);
        if (partialArgs?.length) send(at, { functionCall: { partialArgs, willContinue: true } });
        break;
      }
      case 'stream/block-end':
        if (event.callId !== undefined && event.callId !== cut && call) {
          const partialArgs = call.end();
          if (partialArgs.length) send(at, { functionCall: { partialArgs, willContinue: true } });
          send(at, { functionCall: {} });
          call = undefined;
        }
        break;
      default:
        event satisfies never;
    }
  });
  if (attempt.finished) {
    send(attempt.end, { text: '' }, stopReasonOf(attempt) === 'length' ? 'MAX_TOKENS' : 'STOP');
  }
  return out;
}

type Entry = Record<string, unknown>;

/** One call's recorded argument text, sent as `partialArgs` entries as it arrives. */
class CallArguments {
  readonly #free: boolean;
  /** The call's whole recorded text: its deltas joined (cut, for a cut call). */
  readonly #text: string;
  readonly #leaves: readonly Leaf[];
  /** How much of the text has arrived. */
  #at = 0;
  /** The first leaf not yet sent whole, and how far into its raw content a string was sent. */
  #leaf = 0;
  #sent = 0;
  /** The string at `#leaf` has been opened (its first piece sent). */
  #opened = false;

  constructor(attempt: ScriptAttempt, first: ToolCallDeltaEvent) {
    this.#free = first.input === 'text';
    let text = '';
    for (const { event } of attempt.stream) {
      if (event.type === 'stream/tool-call-delta' && event.callId === first.callId)
        text += event.args;
    }
    this.#text = text;
    this.#leaves = this.#free ? [] : leavesOf(text).filter((leaf) => leaf.path !== '$');
  }

  /** The entries for the next `fragment` of the recorded text. */
  next(fragment: string): Entry[] {
    if (this.#free) return [{ jsonPath: '$.input', stringValue: fragment, willContinue: true }];
    this.#at += fragment.length;
    return this.#entries(this.#at);
  }

  /** The entries the call's end completes (a free-form call's closing piece). */
  end(): Entry[] {
    if (this.#free) return [{ jsonPath: '$.input', stringValue: '' }];
    return this.#entries(this.#text.length);
  }

  #entries(upTo: number): Entry[] {
    const entries: Entry[] = [];
    for (; this.#leaf < this.#leaves.length; this.#leaf++) {
      const leaf = this.#leaves[this.#leaf] as Leaf;
      if (leaf.kind !== 'string') {
        if (leaf.end > upTo) break;
        entries.push(scalarEntry(this.#text, leaf));
        continue;
      }
      if (leaf.start > upTo) break;
      const raw = this.#text.slice(leaf.start, leaf.end);
      const closed = !leaf.open && leaf.end < upTo;
      const cut = closed
        ? raw.length
        : safeCut(raw, this.#sent, Math.min(upTo, leaf.end) - leaf.start);
      const piece = decoded(raw.slice(this.#sent, cut));
      this.#sent = cut;
      if (closed) entries.push({ jsonPath: leaf.path, stringValue: piece });
      else if (piece !== '' || !this.#opened) {
        entries.push({ jsonPath: leaf.path, stringValue: piece, willContinue: true });
      }
      if (!closed) {
        this.#opened = true;
        break;
      }
      this.#sent = 0;
      this.#opened = false;
    }
    return entries;
  }
}

function scalarEntry(text: string, leaf: Leaf): Entry {
  if (leaf.kind === 'object') return { jsonPath: leaf.path };
  if (leaf.kind === 'array') return { jsonPath: `${leaf.path}[]` };
  const value = JSON.parse(text.slice(leaf.start, leaf.end)) as unknown;
  if (value === null) return { jsonPath: leaf.path, nullValue: null };
  if (typeof value === 'boolean') return { jsonPath: leaf.path, boolValue: value };
  return { jsonPath: leaf.path, numberValue: value };
}
