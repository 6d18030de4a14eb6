import type { AdapterRun } from './adapter-run.js';
import type { Attempt } from './attempt.js';
import { isRecord } from './read-chunk.js';

/** A call of the response, for finding the one a response part answers. */
interface Call {
  readonly key: string;
  readonly id: unknown;
  readonly name: unknown;
  answered: boolean;
}

/**
 * The parts of a Gemini response for calls the provider runs, and their results:
 *
 * 1. `executableCode { language, code }` (code execution) is a call named `code_execution`
 *    with `executor: 'provider'` and `{ language, code }`; the next `codeExecutionResult`
 *    is its `tool/result` (`{ outcome, output }`, an error unless `OUTCOME_OK`).
 * 2. `toolCall { id, toolType, args }` (Gemini 3's server-side tools) is a provider-run
 *    call named by its `toolType`; `toolResponse { id, response }` is its result (by `id`,
 *    else the first one not yet answered).
 * 3. `functionResponse { id, name, response }` in the model's own stream (server-side MCP)
 *    answers a function call of the response (by `id`, else the first of that `name` not yet
 *    answered): the provider ran it, so it is recorded as the provider's and not dispatched
 *    (`Attempt.providerResult`); `response` is its output, an error with an `error` member.
 * 4. A response part that answers no call of the response is reported to `onMalformed`.
 */
export class GeminiProviderParts {
  readonly #run: AdapterRun;
  readonly #functions: Call[] = [];
  readonly #server: Call[] = [];
  #code: string | undefined;

  constructor(run: AdapterRun) {
    this.#run = run;
  }

  /** Whether `part` is one of these parts. */
  static handles(part: Record<string, unknown>): boolean {
    return (
      isRecord(part.functionResponse) ||
      isRecord(part.executableCode) ||
      isRecord(part.codeExecutionResult) ||
      isRecord(part.toolCall) ||
      isRecord(part.toolResponse)
    );
  }

  /** A function call of the response, which a `functionResponse` may answer (rule 3). */
  called(key: string, id: unknown, name: string): void {
    this.#functions.push({ key, id, name, answered: false });
  }

  /**
   * Folds one of these parts. `newKey` numbers a new block; `settle(key)` ends call `key`
   * if its arguments are still streaming, before its result is recorded.
   */
  part(
    attempt: Attempt,
    part: Record<string, unknown>,
    newKey: () => string,
    settle: (key: string) => void,
  ): void {
    const { functionResponse, executableCode, codeExecutionResult, toolCall, toolResponse } = part;
    if (isRecord(functionResponse)) {
      const call = answered(this.#functions, functionResponse, functionResponse.name);
      if (!call) {
        this.#run.malformed('functionResponse answers no call of this response', part);
        return;
      }
      settle(call.key);
      result(attempt, call.key, functionResponse.response);
    } else if (isRecord(executableCode)) {
      const { id, language, code } = executableCode;
      this.#code = newKey();
      const args = { language, code };
      attempt.tool(this.#code, { id, name: 'code_execution', args, executor: 'provider' });
      attempt.end(this.#code);
    } else if (isRecord(codeExecutionResult)) {
      if (this.#code === undefined) return;
      const { outcome, output } = codeExecutionResult;
      attempt.providerResult(this.#code, { outcome, output }, outcome !== 'OUTCOME_OK');
      this.#code = undefined;
    } else if (isRecord(toolCall)) {
      const { id, toolType, args } = toolCall;
      const key = newKey();
      this.#server.push({ key, id, name: undefined, answered: false });
      const name = typeof toolType === 'string' && toolType !== '' ? toolType : 'server_tool';
      attempt.tool(key, { id, name, args: isRecord(args) ? args : {}, executor: 'provider' });
      attempt.end(key);
    } else if (isRecord(toolResponse)) {
      const call = answered(this.#server, toolResponse, undefined);
      if (!call) {
        this.#run.malformed('toolResponse answers no toolCall of this response', part);
        return;
      }
      result(attempt, call.key, toolResponse.response);
    }
  }
}

/** The call `answer` answers, marked answered: by its `id`, else the first of `name` open. */
function answered(
  calls: readonly Call[],
  answer: Record<string, unknown>,
  name: unknown,
): Call | undefined {
  const { id } = answer;
  const call =
    (id !== undefined && calls.find((c) => !c.answered && c.id === id)) ||
    calls.find((c) => !c.answered && (name === undefined || c.name === name));
  if (call) call.answered = true;
  return call;
}

function result(attempt: Attempt, key: string, response: unknown): void {
  attempt.providerResult(key, response, isRecord(response) && response.error !== undefined);
}
