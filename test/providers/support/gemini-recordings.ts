/**
 * The recorded Gemini streams of test/fixtures/provider-recordings/, served as that folder's
 * README says: a `*.chunks.txt` line (a `GenerateContentResponse`) becomes `data: <line>` and
 * a blank line (no event names, no `[DONE]`); a js-genai replay file holds one response per
 * interaction, each body segment served as `data: <JSON.stringify(segment)>`.
 */
import { recording } from './recordings.js';

/** The SSE body of a Gemini `*.chunks.txt` recording. */
export async function geminiBody(path: string): Promise<string> {
  const lines = (await recording(path)).split('\n').filter((line) => line.trim() !== '');
  return lines.map((line) => `data: ${line}\n\n`).join('');
}

/** The chunk objects of a Gemini `*.chunks.txt` recording, as an SDK yields them. */
export async function geminiChunks(path: string): Promise<unknown[]> {
  const lines = (await recording(path)).split('\n').filter((line) => line.trim() !== '');
  return lines.map((line) => JSON.parse(line) as unknown);
}

/** One response of a js-genai replay file. */
export interface ReplayResponse {
  readonly path: string;
  readonly segments: readonly unknown[];
  readonly body: string;
}

/** The responses of a js-genai `*.replay.json` recording, one per interaction. */
export async function replayResponses(path: string): Promise<ReplayResponse[]> {
  const replay = JSON.parse(await recording(path)) as {
    interactions: { request: { url: string }; response: { bodySegments: unknown[] } }[];
  };
  return replay.interactions.map(({ request, response }) => ({
    path: request.url,
    segments: response.bodySegments,
    body: response.bodySegments.map((s) => `data: ${JSON.stringify(s)}\n\n`).join(''),
  }));
}
