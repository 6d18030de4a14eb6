import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt } from './adapter-run.js';
import type { Attempt, Ending } from './attempt.js';
import { PartialArgsWriter } from './gemini-partial-args.js';
import { GeminiProviderParts } from './gemini-provider-parts.js';
import type { ProviderSource } from './provider-source.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { isRecord } from './read-chunk.js';
import { isCut, stopReasonOf } from './stop-reason.js';

const provider = 'gemini';

/**
 * Translates a Gemini `streamGenerateContent` stream into CallfoldEvents: the
 * `GenerateContentResponse`s `@google/genai` yields (`ai.models.generateContentStream(…)`,
 * Gemini API or Vertex AI), or the raw SSE of `:streamGenerateContent?alt=sse`.
 *
 * 1. Only candidate 0 is read. Its parts, in order: `text` is a text block, `text` with
 *    `thought: true` a reasoning block (consecutive parts of one kind share a block; empty
 *    text opens none); `thoughtSignature` is ignored (it stays on the provider's objects).
 * 2. A `functionCall` part with a `name` is a call: whole (`args`, an object, shown as its
 *    JSON text and dispatched as that object; no `args`: `{}`), or streamed (Vertex AI's
 *    `streamFunctionCallArguments`): `willContinue: true`, then parts whose `functionCall`
 *    has `partialArgs` (values by JSON path) and no name, until one without `willContinue`
 *    (usually an empty `functionCall: {}`) ends it. Streamed values become argument JSON
 *    text in the order they arrive (`PartialArgsWriter`), so a long string argument shows
 *    key by key while it streams; the block-end text is the fragments joined (the same text
 *    as the final arguments). A `partialArgs` entry that cannot be used (a bad path, an
 *    index past its array's end) is skipped and reported to `onMalformed`.
 * 3. Calls have no id on most models: the callId is then `${attemptId}:${block}`, unique per
 *    response and session; an `id` the provider sends is used as for the other adapters.
 *    Parallel calls are parts one after the other, each its own block.
 * 4. Provider-run tools (`GeminiProviderParts`): `executableCode` / `codeExecutionResult`
 *    are a `code_execution` call and its result; Gemini 3's `toolCall` / `toolResponse` a
 *    call named by its `toolType` and its result; a `functionResponse` in the model's own
 *    stream (server-side MCP) makes the call it answers the provider's: recorded with its
 *    result, not dispatched.
 * 5. Gemini has no terminal event: the response ends normally when the body ends after a
 *    candidate gave a `finishReason` (the server-side MCP stream sends `STOP` after the call,
 *    then the result and more text: the last reason counts); a body that ends without one was
 *    cut (`AdapterOptions`, rule 4). `STOP` lets the message say `tool-calls` or `end`;
 *    `MAX_TOKENS` (`length`) and the safety reasons (`SAFETY`, `RECITATION`, `BLOCKLIST`,
 *    `PROHIBITED_CONTENT`, `SPII`, …: `content-filter`) truncate it: a call still streaming
 *    at the end is `incomplete` and not dispatched. A prompt blocked before any candidate
 *    (`promptFeedback.blockReason`) ends as `content-filter`. A call still streaming when a
 *    `STOP` response ends is closed and dispatched with the values it has.
 * 6. A chunk with an `error` member fails the stream (`ProviderStreamError`).
 *
 * Cut streams, errors and `dispatch` are as for every adapter: see `AdapterOptions`.
 *
 * @example
 * ```ts
 * const stream = await ai.models.generateContentStream({ model, contents, config: { tools } });
 * fromGemini(stream, { session }).pipe(assemble()).subscribe(render);
 * ```
 */
export function fromGemini(
  source: ProviderSource,
  options: AdapterOptions = {},
): Observable<CallfoldEvent> {
  return adapt(provider, source, options, geminiFolder);
}

function geminiFolder(run: AdapterRun): (chunk: unknown) => void {
  let ending: Ending | undefined;
  let blocks = 0;
  /** The text or reasoning block parts continue, if the last part was one. */
  let textKey: string | undefined;
  let textThought = false;
  /** The call whose arguments are streaming (Vertex AI's `partialArgs`). */
  let streamKey: string | undefined;
  let writer: PartialArgsWriter | undefined;
  const provided = new GeminiProviderParts(run);
  const newKey = () => `call:${blocks++}`;

  const endText = (attempt: Attempt): void => {
    if (textKey !== undefined) attempt.end(textKey);
    textKey = undefined;
  };

  const write = (attempt: Attempt, entries: unknown): void => {
    if (!Array.isArray(entries) || writer === undefined || streamKey === undefined) return;
    for (let i = 0, count = entries.length; i < count; i++) {
      const fragment = writer.write(entries[i], true);
      if (fragment === undefined) run.malformed(`partialArgs: ${writer.problem}`, entries[i]);
      else if (writer.decoded) attempt.argsString(streamKey, fragment);
      else if (fragment !== '') attempt.args(streamKey, fragment);
    }
  };

  /** Ends the streaming call: closes its text (rule 2), or gives the rebuilt arguments. */
  const endStream = (attempt: Attempt): void => {
    if (streamKey === undefined || writer === undefined) return;
    const closing = writer.close();
    if (closing !== '') attempt.args(streamKey, closing);
    attempt.end(streamKey, writer.diverged ? writer.text() : undefined);
    streamKey = undefined;
    writer = undefined;
  };

  const functionCall = (attempt: Attempt, call: Record<string, unknown>): void => {
    const { name, partialArgs } = call;
    if (typeof name !== 'string' || name === '') {
      if (streamKey === undefined) {
        if (partialArgs !== undefined || call.args !== undefined) {
          run.malformed('functionCall without a name outside a streamed call', call);
        }
        return;
      }
      write(attempt, partialArgs);
      if (call.willContinue !== true && !continues(partialArgs)) endStream(attempt);
      return;
    }
    endStream(attempt);
    endText(attempt);
    const key = newKey();
    provided.called(key, call.id, name);
    const args = call.args;
    attempt.tool(key, { id: call.id, name, args: isRecord(args) ? args : undefined });
    if (isRecord(args) || (call.willContinue !== true && !Array.isArray(partialArgs))) {
      attempt.end(key);
      return;
    }
    streamKey = key;
    // The writer reads a streamed string back from the call's argument text when it must.
    writer = new PartialArgsWriter(attempt.argsSoFar(key));
    write(attempt, partialArgs);
    if (call.willContinue !== true && !continues(partialArgs)) endStream(attempt);
  };

  const part = (attempt: Attempt, value: unknown): void => {
    if (!isRecord(value)) {
      run.malformed('part is not an object', value);
      return;
    }
    const { text, functionCall: call } = value;
    if (isRecord(call)) {
      functionCall(attempt, call);
    } else if (typeof text === 'string') {
      if (text === '') return;
      const thought = value.thought === true;
      if (textKey === undefined || thought !== textThought) {
        endText(attempt);
        textKey = `text:${blocks++}`;
        textThought = thought;
      }
      attempt.text(textKey, text, thought);
    } else if (GeminiProviderParts.handles(value)) {
      endText(attempt);
      provided.part(attempt, value, newKey, (key) => {
        if (key === streamKey) endStream(attempt);
      });
    }
  };

  run.atSourceEnd = () => {
    if (ending === undefined) return;
    const attempt = run.live;
    // A `STOP` with a call still streaming: the values it has are its arguments (rule 5).
    if (attempt && !ending.truncated) endStream(attempt);
    run.finish(ending);
  };

  // Most chunks of a long streamed argument are one part with one `partialArgs` entry: the
  // next piece of the string left open. Fields are read once each, straight off the chunk,
  // with the general path's checks (docs/decisions/0011-sdk-stream-costs.md).
  const next = (chunk: Record<string, unknown>): boolean => {
    const candidates = chunk.candidates;
    if (!Array.isArray(candidates) || candidates.length !== 1) return false;
    const candidate: unknown = candidates[0];
    if (!isRecord(candidate) || candidate.finishReason !== undefined) return false;
    const content = candidate.content;
    const parts = isRecord(content) ? content.parts : undefined;
    if (!Array.isArray(parts) || parts.length !== 1) return false;
    const part: unknown = parts[0];
    const call = isRecord(part) ? part.functionCall : undefined;
    if (!isRecord(call) || call.willContinue !== true || call.name !== undefined) return false;
    const entries = call.partialArgs;
    if (!Array.isArray(entries) || entries.length !== 1 || chunk.error !== undefined) return false;
    if ((candidate.index ?? 0) !== 0 || writer === undefined || streamKey === undefined) {
      return false;
    }
    const entry: unknown = entries[0];
    const fragment = writer.write(entry, true);
    if (fragment === undefined) run.malformed(`partialArgs: ${writer.problem}`, entry);
    else if (writer.decoded) run.attempt().argsString(streamKey, fragment);
    else if (fragment !== '') run.attempt().args(streamKey, fragment);
    return true;
  };

  return (chunk) => {
    if (!isRecord(chunk)) return;
    if (writer !== undefined && next(chunk)) return;
    const error = chunk.error;
    if (error !== undefined && error !== null) {
      throw new ProviderStreamError(provider, errorMessage(error, 'stream error'), {
        payload: chunk,
      });
    }
    const attempt = run.attempt();
    if (attempt.messageId === undefined) {
      const id = chunk.responseId;
      if (typeof id === 'string' && id !== '') attempt.messageId = id;
    }
    const candidate = firstCandidate(chunk.candidates);
    if (candidate === undefined) {
      const feedback = chunk.promptFeedback;
      if (isRecord(feedback) && typeof feedback.blockReason === 'string') {
        ending = { stopReason: 'content-filter', truncated: true };
      }
      return;
    }
    const content = candidate.content;
    const parts = isRecord(content) ? content.parts : undefined;
    if (Array.isArray(parts)) {
      for (let i = 0, count = parts.length; i < count; i++) part(attempt, parts[i]);
    }
    const reason = candidate.finishReason;
    if (typeof reason === 'string' && reason !== '') {
      const stopReason = stopReasonOf(reason);
      ending =
        stopReason === 'end' || stopReason === undefined
          ? {}
          : { stopReason, truncated: isCut(stopReason) };
    }
  };
}

/** Whether a `partialArgs` list leaves a string open (`willContinue` on an entry). */
function continues(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  for (const entry of entries) if (isRecord(entry) && entry.willContinue === true) return true;
  return false;
}

/** Candidate 0 of a chunk (a candidate without `index` counts as 0), if it is an object. */
function firstCandidate(candidates: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(candidates)) return undefined;
  for (let i = 0, count = candidates.length; i < count; i++) {
    const candidate: unknown = candidates[i];
    if (isRecord(candidate) && (candidate.index ?? 0) === 0) return candidate;
  }
  return undefined;
}
