/**
 * fromBedrockConverse fed by the real `@aws-sdk/client-bedrock-runtime` client
 * (`BedrockRuntimeClient` with an `endpoint` and static test credentials; its default
 * `NodeHttp2Handler` speaks HTTP/2 to a loopback h2c server on 127.0.0.1, prior knowledge,
 * no TLS) over Bedrock's recorded `ConverseStream` bodies: pydantic-ai's binary recordings as
 * they are, vercel/ai's JSON lines framed with `@smithy/eventstream-codec`. Compared with the
 * raw bytes through callfold's own frame decoder, and with what the AI SDK's provider
 * (`@ai-sdk/amazon-bedrock` through `streamText`, over HTTP/1.1) reads from the same bytes.
 * The decoder is checked against the codec. Node only.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createServer as createHttp2Server,
  type Http2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { BedrockRuntimeClient, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { EventStreamCodec, Int64, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { jsonSchema, streamText, tool } from 'ai';
import { expect } from 'chai';
import { lastValueFrom, toArray } from 'rxjs';
import { Assembler } from '../../src/conversation/assembler.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import {
  EventStreamDecoder,
  type EventStreamFrameError,
} from '../../src/providers/aws-event-stream.js';
import { fromBedrockConverse } from '../../src/providers/bedrock-converse.js';
import type { ProviderSource } from '../../src/providers/provider-source.js';
import { createSession } from '../../src/providers/session.js';
import { repositoryRoot } from '../support/repository.js';

const recordings = `${repositoryRoot()}/test/fixtures/provider-recordings`;
const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** A JSON-lines recording framed as Bedrock sends it: one event message per line. */
function framed(path: string): Uint8Array {
  const frames = readFileSync(`${recordings}/${path}`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [[type, value]] = Object.entries(JSON.parse(line) as Record<string, unknown>) as [
        [string, unknown],
      ];
      const headers: MessageHeaders = {
        ':event-type': { type: 'string', value: type },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: 'event' },
      };
      return codec.encode({ headers, body: fromUtf8(JSON.stringify(value)) });
    });
  return concat(frames);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const bodies: Record<string, Uint8Array> = {
  'tool-call': framed('vercel-ai/amazon-bedrock-tool-call.1.chunks.txt'),
  'tool-no-args': framed('vercel-ai/amazon-bedrock-tool-no-args.chunks.txt'),
  'json-with-tools': framed('vercel-ai/amazon-bedrock-json-with-tools.1.chunks.txt'),
  'parallel-interleaved': framed('vercel-ai/amazon-bedrock-parallel-interleaved.inline.jsonl'),
  'kimi-k2': framed('vercel-ai/issue-11409-kimi-k2-thinking-read-file.chunks.txt'),
  'nova-micro': readFileSync(
    `${recordings}/pydantic-ai/bedrock-nova-micro-text-then-tool.converse-stream.eventstream`,
  ),
  'nova2-code-interpreter': readFileSync(
    `${recordings}/pydantic-ai/bedrock-nova2-lite-code-interpreter.converse-stream.eventstream`,
  ),
};

const requests: { version: string; path: string; authorization: string }[] = [];
/** Answers `POST /model/<model>/converse-stream` with the recording the model id names. */
function answer(
  request: IncomingMessage | Http2ServerRequest,
  response: ServerResponse | Http2ServerResponse,
): void {
  request.resume();
  request.on('end', () => {
    const path = request.url ?? '';
    requests.push({
      version: request.httpVersion,
      path,
      authorization: String(request.headers.authorization ?? ''),
    });
    const model = decodeURIComponent(/\/model\/([^/]+)\/converse-stream/.exec(path)?.[1] ?? '');
    const body = bodies[model];
    if (!body) {
      response.writeHead(404, {
        'content-type': 'application/json',
        'x-amzn-errortype': 'ResourceNotFoundException',
      });
      response.end(JSON.stringify({ message: `no recording ${model}` }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
    response.end(body);
  });
}

let h2: Http2Server;
let h1: Server;
let h2Url = '';
let h1Url = '';
before(async () => {
  h2 = createHttp2Server(answer);
  h1 = createServer(answer);
  await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => h1.listen(0, '127.0.0.1', resolve));
  h2Url = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`;
  h1Url = `http://127.0.0.1:${(h1.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((resolve) => h2.close(() => resolve()));
  await new Promise<void>((resolve) => h1.close(() => resolve()));
});

const credentials = { accessKeyId: 'AKIDTESTTESTTEST', secretAccessKey: 'test-secret' };

async function fold(source: ProviderSource): Promise<CallfoldEvent[]> {
  let n = 0;
  const session = createSession({ now: () => 0, attemptId: () => `a${++n}` });
  return lastValueFrom(fromBedrockConverse(source, { session }).pipe(toArray()));
}

function calls(events: readonly CallfoldEvent[]): [string, unknown][] {
  return events.flatMap((e) =>
    e.type === 'tool/call' ? [[e.name, JSON.parse(e.args as string)] as [string, unknown]] : [],
  );
}

function foldNodes(events: readonly CallfoldEvent[]) {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return [...assembler.publish().tools].map(([id, node]) => {
    const { args, startedAt: _s, firstTokenAt: _f, ...rest } = node;
    return [id, { ...rest, closed: args.closed() }];
  });
}

/** What `@ai-sdk/amazon-bedrock` reads from the same body: each tool call's name and input. */
async function aiSdkCalls(model: string): Promise<[string, unknown][]> {
  const bedrock = createAmazonBedrock({ baseURL: h1Url, region: 'us-east-1', ...credentials });
  const any = tool({
    inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
    execute: async () => null,
  });
  const names = [
    'test-tool',
    'updateIssueList',
    'tool-a',
    'tool-b',
    'json',
    'test-tool-1',
    'test-tool-2',
    'read_file',
    'get_temperature',
    'final_result',
  ];
  const result = streamText({
    model: bedrock(model),
    prompt: 'recorded',
    tools: Object.fromEntries(names.map((n) => [n, any])),
  });
  const found: [string, unknown][] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'tool-call') found.push([part.toolName, part.input]);
    if (part.type === 'error') throw part.error;
  }
  return found;
}

describe('fromBedrockConverse through BedrockRuntimeClient (HTTP/2, h2c) against a loopback server', () => {
  for (const model of Object.keys(bodies)) {
    it(`${model}: the client's stream, the raw bytes and @ai-sdk/amazon-bedrock agree`, async () => {
      const client = new BedrockRuntimeClient({
        region: 'us-east-1',
        endpoint: h2Url,
        credentials,
      });
      const before = requests.length;
      const output = await client.send(
        new ConverseStreamCommand({
          modelId: model,
          messages: [{ role: 'user', content: [{ text: 'recorded' }] }],
        }),
      );
      const viaSdk = await fold(output.stream as AsyncIterable<unknown>);
      client.destroy();
      expect(requests[before]).to.include({ version: '2.0' });
      expect(requests[before]?.authorization).to.match(
        /^AWS4-HMAC-SHA256 Credential=AKIDTESTTESTTEST\//,
      );
      const viaBytes = await fold(new Response(bodies[model] as BodyInit));
      expect(viaSdk).to.deep.equal(viaBytes);
      const ours = calls(viaSdk).filter(([name]) => name !== 'nova_code_interpreter');
      expect(ours.length).to.be.greaterThan(0);
      if (model === 'nova2-code-interpreter') {
        // @ai-sdk/amazon-bedrock 4 rejects the `delta.toolResult` of Nova's provider-run code
        // interpreter (its chunk schema has no such delta): there is nothing to compare.
        const failure = await aiSdkCalls(model).then(
          () => undefined,
          (error: Error) => error,
        );
        expect(failure?.message).to.include('Type validation failed');
      } else {
        expect(ours).to.deep.equal(await aiSdkCalls(model));
      }
      expect(foldNodes(viaSdk.filter(isDurableEvent))).to.deep.equal(foldNodes(viaSdk));
    });
  }

  it('an HTTP error answer: the client throws its own error; the raw Response fails with its status', async () => {
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: h2Url,
      credentials,
      maxAttempts: 1,
    });
    const failed = await client
      .send(
        new ConverseStreamCommand({
          modelId: 'missing',
          messages: [{ role: 'user', content: [{ text: 'x' }] }],
        }),
      )
      .then(
        () => undefined,
        (error: Error) => error,
      );
    client.destroy();
    expect(failed?.name).to.equal('ResourceNotFoundException');
    const raw = await fetch(`${h1Url}/model/missing/converse-stream`, { method: 'POST' });
    const error = await fold(raw).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.equal('HTTP 404 Not Found');
  });
});

describe('EventStreamDecoder against @smithy/eventstream-codec', () => {
  it('decodes the recorded bodies message for message as the codec does', () => {
    for (const model of ['nova-micro', 'nova2-code-interpreter', 'kimi-k2']) {
      const bytes = bodies[model] as Uint8Array;
      const ours = new EventStreamDecoder((error) => {
        throw error;
      }).push(bytes);
      const theirs: { headers: Record<string, string>; body: string }[] = [];
      for (let at = 0; at < bytes.length; ) {
        const length = new DataView(bytes.buffer, bytes.byteOffset + at).getUint32(0);
        const message = codec.decode(bytes.subarray(at, at + length));
        theirs.push({
          headers: Object.fromEntries(
            Object.entries(message.headers).map(([k, v]) => [k, String(v.value)]),
          ),
          body: toUtf8(message.body),
        });
        at += length;
      }
      expect(
        ours.map((m) => ({ headers: Object.fromEntries(m.headers), body: toUtf8(m.payload) })),
      ).to.deep.equal(theirs);
    }
  });

  it('reads every header type the codec writes, skips a corrupted message, and fails on a corrupted prelude', () => {
    const headers: MessageHeaders = {
      yes: { type: 'boolean', value: true },
      no: { type: 'boolean', value: false },
      byte: { type: 'byte', value: 7 },
      short: { type: 'short', value: 300 },
      int: { type: 'integer', value: 70000 },
      long: { type: 'long', value: Int64.fromNumber(1234567890123) },
      bin: { type: 'binary', value: new Uint8Array([1, 2, 3]) },
      time: { type: 'timestamp', value: new Date(0) },
      id: { type: 'uuid', value: '00112233-4455-6677-8899-aabbccddeeff' },
      ':event-type': { type: 'string', value: 'messageStop' },
    };
    const one = codec.encode({ headers, body: fromUtf8('{"stopReason":"end_turn"}') });
    const two = codec.encode({ headers, body: fromUtf8('{"stopReason":"tool_use"}') });
    const bad: EventStreamFrameError[] = [];
    const decoder = new EventStreamDecoder((error) => void bad.push(error));
    const corrupted = one.slice();
    corrupted[corrupted.length - 6] = (corrupted[corrupted.length - 6] as number) ^ 0xff; // in the payload: the message checksum fails
    const messages = [
      ...decoder.push(corrupted.subarray(0, 5)),
      ...decoder.push(concat([corrupted.subarray(5), two])),
    ];
    expect(messages.map((m) => [m.headers.get(':event-type'), toUtf8(m.payload)])).to.deep.equal([
      ['messageStop', '{"stopReason":"tool_use"}'],
    ]);
    expect(bad.map((e) => [e.message, e.fatal])).to.deep.equal([
      ['event stream message checksum mismatch', false],
    ]);
    expect(decoder.end()).to.equal(false);
    const prelude = two.slice();
    prelude[2] = (prelude[2] as number) ^ 0x01;
    const lost = new EventStreamDecoder(() => {});
    expect(lost.push(concat([one, prelude, two])).map((m) => toUtf8(m.payload))).to.deep.equal([
      '{"stopReason":"end_turn"}',
    ]);
    expect(lost.failure?.message).to.equal('event stream prelude checksum mismatch');
    expect(lost.push(two)).to.deep.equal([]);
  });
});
