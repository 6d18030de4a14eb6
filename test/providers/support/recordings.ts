/**
 * The recorded provider streams of test/fixtures/provider-recordings/ (copied from the shared
 * provider-recordings folder; see its README), served the way that folder's README says: a
 * `*.chunks.txt` line becomes an SSE message `event: <type>` + `data: <line>`, one response per
 * request (ending at `response.completed`, `response.incomplete` or `message_stop`); a JSONL of
 * chat chunks becomes `data: <line>` messages and `data: [DONE]`; `.sse` and `.txt` bodies are
 * served as they are.
 */
import { readText } from './fixtures.js';

/** A recording's raw bytes as text. */
export function recording(path: string): Promise<string> {
  return readText(`provider-recordings/${path}`);
}

/** The SSE bodies of a `*.chunks.txt` recording, one per response. */
export async function chunkResponses(path: string): Promise<string[]> {
  const bodies: string[] = [];
  let body = '';
  for (const line of (await recording(path)).split('\n')) {
    if (line.trim() === '') continue;
    const { type } = JSON.parse(line) as { type: string };
    body += `event: ${type}\ndata: ${line}\n\n`;
    if (
      type === 'response.completed' ||
      type === 'response.incomplete' ||
      type === 'message_stop'
    ) {
      bodies.push(body);
      body = '';
    }
  }
  if (body !== '') bodies.push(body);
  return bodies;
}

/** The SSE body of a JSONL recording of Chat Completions chunks. */
export async function chatChunksBody(path: string): Promise<string> {
  const lines = (await recording(path)).split('\n').filter((line) => line.trim() !== '');
  return `${lines.map((line) => `data: ${line}\n\n`).join('')}data: [DONE]\n\n`;
}

/** `body` as the Response a fetch would return. */
export function sseResponse(body: string): Response {
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}
