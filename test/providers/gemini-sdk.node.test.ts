/**
 * fromGemini fed by the real `@google/genai` client (Gemini API mode and Vertex AI mode,
 * `httpOptions.baseUrl`) talking to a loopback HTTP server on 127.0.0.1 that serves Google's
 * recorded `streamGenerateContent?alt=sse` bodies, and compared with what the AI SDK's own
 * provider (`@ai-sdk/google` through `streamText`) reads from the same bytes: the same calls,
 * names and arguments (ids aside). Node only (the SDKs are dev dependencies).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { GoogleGenAI } from '@google/genai';
import { jsonSchema, streamText, tool } from 'ai';
import { expect } from 'chai';
import { lastValueFrom, toArray } from 'rxjs';
import { Assembler } from '../../src/conversation/assembler.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { isDurableEvent } from '../../src/events/types.js';
import { fromGemini } from '../../src/providers/gemini.js';
import { createSession, type Session } from '../../src/providers/session.js';
import { repositoryRoot } from '../support/repository.js';

const recordings = `${repositoryRoot()}/test/fixtures/provider-recordings`;
const read = (path: string) => readFileSync(`${recordings}/${path}`, 'utf8');

/** A `*.chunks.txt` recording framed as `streamGenerateContent?alt=sse`. */
const chunksBody = (path: string) =>
  read(path)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `data: ${line}\n\n`)
    .join('');

/** The bodies of a js-genai replay file, one per interaction. */
const replayBodies = (path: string) =>
  (
    JSON.parse(read(path)) as { interactions: { response: { bodySegments: unknown[] } }[] }
  ).interactions.map(({ response }) =>
    response.bodySegments.map((s) => `data: ${JSON.stringify(s)}\n\n`).join(''),
  );

const recorded: Record<string, string> = {
  'tool-call': chunksBody('vercel-ai/google-tool-call.chunks.txt'),
  'tool-call-gemini3': chunksBody('vercel-ai/google-tool-call-gemini3.chunks.txt'),
  'no-args-parallel': chunksBody('vercel-ai/google-stream-no-args-tool-call.chunks.txt'),
  'partial-args': chunksBody('vercel-ai/google-stream-tool-call-arguments.chunks.txt'),
  nested: chunksBody('vercel-ai/google-vertex-stream-tool-call-arguments-nested.1.chunks.txt'),
  'missing-terminal': chunksBody(
    'vercel-ai/google-stream-tool-call-array-arguments-missing-terminal-function-call.chunks.txt',
  ),
  'js-genai-vertex': replayBodies(
    'js-genai/vertex-stream-function-call-arguments.replay.json',
  )[0] as string,
  'js-genai-one-chunk': replayBodies(
    'js-genai/vertex-chat-partial-args-one-chunk.replay.json',
  )[0] as string,
  'server-side-mcp': replayBodies('js-genai/server-side-mcp-stream.replay.json')[0] as string,
};

/** Requests seen: the path and the model named in it. */
const requests: string[] = [];
let server: Server;
let baseUrl = '';

/** Serves `recorded[name]` for a request whose model is `name` (the model name picks the body). */
before(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = request.url ?? '';
      requests.push(url);
      const name = /models\/([^:]+):streamGenerateContent/.exec(url)?.[1] ?? '';
      const body = recorded[name];
      if (body === undefined) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 404, message: `no recording ${name}` } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const session = (): Session => {
  let n = 0;
  return createSession({ now: () => 0, attemptId: () => `a${++n}` });
};

async function fold(source: Parameters<typeof fromGemini>[0]): Promise<CallfoldEvent[]> {
  return lastValueFrom(fromGemini(source, { session: session() }).pipe(toArray()));
}

/** Name and parsed arguments of each dispatched call. */
function calls(events: readonly CallfoldEvent[]): [string, unknown][] {
  return events.flatMap((e) =>
    e.type === 'tool/call'
      ? [[e.name, typeof e.args === 'string' ? JSON.parse(e.args) : e.args] as [string, unknown]]
      : [],
  );
}

function foldNodes(events: readonly CallfoldEvent[]) {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return [...assembler.publish().tools].map(([id, node]) => {
    const { args, startedAt: _s, firstTokenAt: _f, ...rest } = node;
    return [id, { ...rest, argsRaw: node.argsRaw, closed: args.closed() }];
  });
}

/** What `@ai-sdk/google` reads from the same recording: each tool call's name and input. */
async function aiSdkCalls(name: string): Promise<[string, unknown][]> {
  const google = createGoogleGenerativeAI({ baseURL: `${baseUrl}/v1beta`, apiKey: 'test-key' });
  const any = tool({
    inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
    execute: async () => null,
  });
  const result = streamText({
    model: google(name),
    prompt: 'recorded',
    tools: {
      weather: any,
      read_theme: any,
      read_screen: any,
      getWeather: any,
      cookRecipe: any,
      writeItems: any,
      getCurrentWeather: any,
      customDivide: any,
      weather_server_get_weather: any,
    },
  });
  const found: [string, unknown][] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'tool-call') found.push([part.toolName, part.input]);
    if (part.type === 'error') throw part.error;
  }
  return found;
}

describe('fromGemini through @google/genai against a loopback server', () => {
  for (const name of Object.keys(recorded)) {
    it(`${name}: the client's GenerateContentResponses, the raw body and @ai-sdk/google agree`, async () => {
      const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl } });
      const stream = await ai.models.generateContentStream({ model: name, contents: 'recorded' });
      const viaSdk = await fold(stream);
      const viaBytes = await fold(
        await fetch(`${baseUrl}/v1beta/models/${name}:streamGenerateContent?alt=sse`, {
          method: 'POST',
        }),
      );
      expect(viaSdk).to.deep.equal(viaBytes);
      const ours = calls(viaSdk);
      expect(ours.length).to.be.greaterThan(0);
      expect(ours).to.deep.equal(await aiSdkCalls(name));
      // Live equals history.
      expect(foldNodes(viaSdk.filter(isDurableEvent))).to.deep.equal(foldNodes(viaSdk));
    });
  }

  it('Vertex AI mode (express, API key) reaches the loopback server and streams partialArgs field by field', async () => {
    const ai = new GoogleGenAI({ vertexai: true, apiKey: 'test-key', httpOptions: { baseUrl } });
    const before = requests.length;
    const stream = await ai.models.generateContentStream({ model: 'nested', contents: 'recorded' });
    const events = await fold(stream);
    expect(requests[before]).to.match(
      /^\/v1beta1\/publishers\/google\/models\/nested:streamGenerateContent\?alt=sse/,
    );
    const deltas = events.filter((e) => e.type === 'stream/tool-call-delta');
    expect(deltas.length).to.be.greaterThan(40);
    const [[name, args] = ['', {}]] = calls(events);
    expect(name).to.equal('cookRecipe');
    expect((args as { recipe: { steps: string[] } }).recipe.steps).to.have.length(10);
  });

  it('an HTTP error answer fails the client before any event (the SDK throws; nothing to fold)', async () => {
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl } });
    let failed: unknown;
    try {
      await ai.models.generateContentStream({ model: 'missing', contents: 'x' });
    } catch (error) {
      failed = error;
    }
    expect(String(failed)).to.include('404');
    const events = await lastValueFrom(
      fromGemini(await fetch(`${baseUrl}/v1beta/models/missing:streamGenerateContent?alt=sse`), {
        session: session(),
      }).pipe(toArray()),
    ).catch((error: Error) => error);
    expect(events).to.be.instanceOf(Error);
    expect((events as Error).message).to.include('HTTP 404');
  });
});
