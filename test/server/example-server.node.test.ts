/**
 * examples/server: the agent server run as its users run it — on a free loopback port, the
 * recorded model streamed through the real Chat Completions adapter (at 80× its recorded
 * pace), the tools run in the sandbox, everything recorded with recordAttempt — and
 * followed over HTTP with followSession: the follower's final Conversation equals the fold of
 * the session's durable history, with the tools' real results. Then the live path: the example
 * started as its users start it (its own process, `OPENAI_BASE_URL`, `OPENAI_API_KEY`,
 * `OPENAI_MODEL`) against a loopback OpenAI-compatible endpoint that replays a recorded Chat
 * Completions stream over SSE. Then the sandbox's refusals.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import OpenAI from 'openai';
import { lastValueFrom, takeWhile, tap, timeout, toArray } from 'rxjs';
import { encodeOpenAIChatCompletions } from '../../examples/demo/encoders/openai-chat-completions.js';
import { type ScriptAttempt, scriptOf } from '../../examples/demo/session-script.js';
import { recordedModel } from '../../examples/server/models.js';
import { Sandbox } from '../../examples/server/sandbox-tools.js';
import {
  type AgentServer,
  modelFromEnvironment,
  sandboxFiles,
  startAgentServer,
} from '../../examples/server/server.js';
import { followSession } from '../../src/client/follow-session.js';
import { loadHistory } from '../../src/client/load-history.js';
import { Assembler } from '../../src/conversation/assembler.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { createSession } from '../../src/providers/session.js';
import type { AssemblerCommand } from '../../src/rx/assembler-command.js';
import { decodeTranscript } from '../../src/wire/transcript.js';
import { project } from '../assembler/support/driver.js';
import { repositoryRoot } from '../support/repository.js';
import { waitFor } from '../support/wait-for.js';
import { demoEvents, follower } from './support/session-fold.js';

const transcript = join(repositoryRoot(), 'examples/transcripts/demo-session.jsonl');

/**
 * Starts a run on the example server at `base` (its URL, ending in `/`) as a reader holding
 * `headers`: its session id and the URL of its events.
 */
async function startRun(base: string, headers: Record<string, string>) {
  const started = await fetch(`${base}sessions`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(started.status).to.equal(201);
  const { sessionId } = (await started.json()) as { sessionId: string };
  return { sessionId, events: `${base}sessions/${sessionId}/events` };
}

/**
 * Follows a run's `events` until `turns` turns ended (`onInput` sees each input first), then
 * checks the follower against the session's durable history: its Conversation is the fold of
 * that history, and every durable event came once. What it saw (input types), the history
 * and its Conversation.
 */
async function followRun(
  events: string,
  headers: Record<string, string>,
  turns: number,
  onInput: (input: CallfoldEvent | AssemblerCommand) => void = () => {},
) {
  const reader = follower();
  const seen: string[] = [];
  let ended = 0;
  await lastValueFrom(
    followSession(events, { headers, retryMs: 20 }).pipe(
      tap((input) => {
        onInput(input);
        reader.take(input);
        seen.push(input.type);
        if (input.type === 'turn/end') ended++;
      }),
      takeWhile(() => ended < turns, true),
    ),
    { defaultValue: undefined },
  );
  const history = await loadHistory(events, { limit: 1000, headers });
  const fold = new Assembler();
  fold.push(history);
  const shown = reader.assembler.publish();
  expect(project(shown)).to.deep.equal(project(fold.publish()));
  expect(reader.durable).to.deep.equal(history.map((event) => event.seq));
  return { seen, history, shown };
}

describe('examples/server: an agent server followed over HTTP', () => {
  let server: AgentServer;
  before(async () => {
    server = await startAgentServer({
      page: false,
      token: 'test-token',
      model: () => recordedModel(transcript, 80),
    });
  });
  after(() => server.close());

  it('a follower ends on the fold of the durable history, with the sandbox tools run', async () => {
    const headers = { authorization: 'Bearer test-token' };
    const { sessionId, events: url } = await startRun(server.url, headers);
    // Unauthorized readers learn nothing, not even that the run exists.
    expect((await fetch(url)).status).to.equal(401);

    const { seen, history, shown } = await followRun(url, headers, 2);
    // Calls streamed in before they were dispatched.
    expect(seen.filter((type) => type === 'stream/tool-call-delta').length).to.be.greaterThan(100);
    await server.runs.get(sessionId);

    // The recording's calls, dispatched once each (the cut response's call was retried), and
    // the call its token limit cut, kept incomplete. Chat Completions carries no provider-run
    // call (the recording's web search).
    const recorded = demoEvents().flatMap((e) =>
      e.type === 'assistant/message'
        ? e.blocks.flatMap((block) =>
            block.type === 'tool-use' && block.executor !== 'provider' ? [block.name] : [],
          )
        : [],
    );
    const tools = [...shown.tools.values()];
    expect(tools.map((tool) => tool.name)).to.deep.equal(recorded);
    const cut = tools.filter((tool) => tool.incomplete);
    expect(cut.map((tool) => [tool.name, tool.stage, tool.result])).to.deep.equal([
      ['Write', 'preparing', null],
    ]);
    const reads = tools.filter((tool) => tool.name === 'Read');
    expect(reads.length).to.be.greaterThan(0);
    for (const read of reads) {
      const path = JSON.parse(read.argsRaw ?? '{}').file_path as string;
      expect(read.result, path).to.deep.equal({ output: sandboxFiles[path], isError: false });
    }
    const notRun = tools.filter((tool) => tool.name !== 'Read' && !tool.incomplete);
    for (const tool of notRun) expect(String(tool.result?.output)).to.match(/^Not run/);
    expect(history.filter((e) => e.type === 'turn/end')).to.have.length(2);
    expect(history.every(isDurableEvent)).to.equal(true);
    const state = await fetch(`${server.url}sessions/${sessionId}/run`, { headers });
    expect(await state.json()).to.deep.equal({ state: 'done' });
  });

  it('GET /metrics: the Prometheus text of the store and the handler, to token holders only', async () => {
    const headers = { authorization: 'Bearer test-token' };
    expect((await fetch(`${server.url}metrics`)).status).to.equal(401);
    expect(
      (await fetch(`${server.url}metrics`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).to.equal(403);
    const { sessionId, events: url } = await startRun(server.url, headers);
    await server.runs.get(sessionId);
    // A history read writes no SSE; a follow of the finished run does, and ends.
    await followRun(url, headers, 2);
    /** The value of a metric without labels, as the text format gives it. */
    const valueIn = (text: string, name: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${name} `));
      return line === undefined ? undefined : Number(line.slice(name.length + 1));
    };
    const scrape = () => fetch(`${server.url}metrics`, { headers });
    // The follower has gone once the server has seen its connection close.
    let text = '';
    await waitFor(async () => {
      text = await (await scrape()).text();
      return valueIn(text, 'callfold_http_followers') === 0;
    }, 'the follower gone');
    const response = await scrape();
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    text = await response.text();
    const value = (name: string) => valueIn(text, name);
    const store = server.store.metrics();
    expect(value('callfold_store_sessions')).to.equal(store.sessions);
    expect(value('callfold_store_sessions')).to.be.at.least(1);
    expect(value('callfold_store_bytes_held')).to.equal(store.bytesHeld);
    expect(value('callfold_store_live_attempts')).to.equal(0);
    expect(value('callfold_http_sent_bytes_total')).to.be.above(0);
    expect(text).to.match(/^# TYPE callfold_store_evictions_total counter$/m);
    expect(text).to.match(/^# TYPE callfold_store_followers gauge$/m);
    // A counter is the store's count, not a sum of scrapes: a second scrape gives the same.
    const again = await (await scrape()).text();
    const sent = (t: string) => /^callfold_http_sent_bytes_total (\d+)$/m.exec(t)?.[1];
    expect(sent(again)).to.equal(sent(text));
  });

  it('the sandbox refuses paths outside it, through .. or a symlink, and runs no other tool', async () => {
    const sandbox = await Sandbox.create({ 'a.txt': 'inside' });
    await symlink('/etc', join(sandbox.root, 'escape'));
    expect(await sandbox.run('Read', { file_path: 'a.txt' })).to.deep.equal({
      output: 'inside',
      isError: false,
    });
    // An absolute path is read from the sandbox's root.
    expect((await sandbox.run('read_file', { file_path: '/a.txt' })).output).to.equal('inside');
    for (const file_path of ['../../etc/hostname', 'escape/hostname', 'a.txt\0', '']) {
      const outcome = await sandbox.run('Read', { file_path });
      expect(outcome.isError, file_path).to.equal(true);
      expect(String(outcome.output)).not.to.include('root');
    }
    expect((await sandbox.run('list_files', { path: '..' })).isError).to.equal(true);
    expect((await sandbox.run('list_files', { path: '.' })).output).to.equal('a.txt\nescape');
    expect((await sandbox.run('Bash', { command: 'rm -rf /' })).output).to.match(/^Not run/);
    expect((await sandbox.run('Read', '{"file_path":')).isError).to.equal(true);
    await sandbox.dispose();
  });
});

/** A Chat Completions request as the example's agent loop sends it. */
interface ChatRequest {
  readonly model: string;
  readonly stream?: boolean;
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
  readonly messages: readonly {
    readonly role: string;
    readonly content?: string | null;
    readonly tool_calls?: readonly unknown[];
    readonly tool_call_id?: string;
  }[];
}

/**
 * A loopback OpenAI-compatible endpoint, answering as the API does and as the official SDK
 * expects: `POST /v1/chat/completions` with `Authorization: Bearer <key>` and a JSON body; a
 * streamed request gets 200 `text/event-stream`, one SSE message a write, a tick apart (as a
 * network hands them over); a wrong key 401, another path 404, each with OpenAI's error body.
 * A conversation that ends with tool results is answered with `closing`, any other with
 * `first`, which waits for `hold` (so a follower can be listening before the call streams).
 */
async function chatCompletionsEndpoint(key: string, first: string, closing: string) {
  const requests: ChatRequest[] = [];
  let hold: Promise<unknown> = Promise.resolve();
  const server = createServer(async (req, res) => {
    const refuse = (status: number, code: string, message: string) =>
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } }),
        );
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      return refuse(404, 'unknown_url', `Unknown request URL: ${req.method} ${req.url}`);
    }
    const body: Buffer[] = [];
    for await (const chunk of req) body.push(chunk as Buffer);
    const request = JSON.parse(Buffer.concat(body).toString('utf8')) as ChatRequest;
    requests.push(request);
    if (req.headers.authorization !== `Bearer ${key}`) {
      return refuse(401, 'invalid_api_key', 'Incorrect API key provided.');
    }
    if (!req.headers['content-type']?.startsWith('application/json') || request.stream !== true) {
      return refuse(400, 'stream_only', 'This endpoint answers JSON requests with stream: true.');
    }
    const toolResults = request.messages.at(-1)?.role === 'tool';
    if (!toolResults) await hold;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    for (const message of (toolResults ? closing : first).split(/(?<=\n\n)/)) {
      res.write(message);
      await sleep(2);
    }
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The next first responses wait for `until`. */
    hold(until: Promise<unknown>) {
      hold = until;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The first match of `pattern` in what `stream` writes (rejected with the text so far if it
 * ends first). The stream keeps flowing: a child writing more never meets a closed pipe.
 */
function lineOf(stream: Readable, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const take = (chunk: unknown) => {
      text += String(chunk);
      const match = pattern.exec(text);
      if (!match) return;
      stream.off('data', take);
      resolve(match);
    };
    stream.on('data', take);
    stream.once('end', () => reject(new Error(`no line matching ${pattern} in:\n${text}`)));
  });
}

/** Each tool's identity, name, arguments and dispatched call: what the stream decides. */
const calls = (conversation: Conversation) =>
  [...conversation.tools.values()].map((tool) => [
    tool.callId,
    tool.name,
    tool.argsRaw,
    tool.call,
    tool.incomplete ?? false,
  ]);

describe('examples/server with a live endpoint: a loopback OpenAI-compatible server replaying a recorded stream', () => {
  const key = 'sk-loopback-test';
  const model = 'gpt-3.5-turbo-0125';
  const prompt = 'What does this project do?';
  /** A recorded Chat Completions stream with one function call (vercel/ai's test data, verbatim). */
  const recorded = readFileSync(
    join(
      repositoryRoot(),
      'test/fixtures/provider-recordings/vercel-ai/openai-chat-tool-deltas.sse',
    ),
    'utf8',
  );
  /**
   * The answer once the tool results are in: the text of the demo session's first response
   * alone (its reasoning and calls left out), as the demo's Chat Completions encoder writes
   * it (`finish_reason: 'stop'`: the turn ends).
   */
  const first = scriptOf(decodeTranscript(readFileSync(transcript, 'utf8'))).items.find(
    (item) => item.kind === 'attempt',
  );
  if (first?.kind !== 'attempt') throw new Error('the demo session has no response');
  const answer: ScriptAttempt = {
    ...first.attempt,
    stream: first.attempt.stream.filter(
      ({ event }) => event.type === 'stream/text-delta' && event.reasoning !== true,
    ),
    records: [],
  };
  const closing = encodeOpenAIChatCompletions(answer)
    .map((chunk) => chunk.data)
    .join('');

  it('the official SDK reads the endpoint; the example started with OPENAI_BASE_URL/OPENAI_API_KEY/OPENAI_MODEL records the run, and a follower sees the recorded call stream in and ends on the fold of the same recording', {
    timeout: 60_000,
  }, async () => {
    const endpoint = await chatCompletionsEndpoint(key, recorded, closing);
    const example = spawn(
      process.execPath,
      [fileURLToPath(new URL('../../examples/server/server.js', import.meta.url))],
      {
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          OPENAI_BASE_URL: `${endpoint.url}/v1/`,
          OPENAI_API_KEY: key,
          OPENAI_MODEL: model,
          PROMPT: prompt,
          CALLFOLD_EXAMPLE_TOKEN: 'live-token',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    example.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    try {
      // The endpoint is what the official SDK expects: its reading of the recording is the
      // expected fold, and a wrong key is the SDK's AuthenticationError.
      const client = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: key, maxRetries: 0 });
      const sdkStream = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: prompt }],
        stream: true,
      });
      const expected = new Assembler();
      expected.push(
        await lastValueFrom(
          fromOpenAIChatCompletions(sdkStream, { session: createSession() }).pipe(toArray()),
        ),
      );
      const recordedCalls = calls(expected.publish());
      expect(recordedCalls.map(([, name, argsRaw]) => [name, argsRaw])).to.deep.equal([
        ['test-tool', '{"value":"Sparkle Day"}'],
      ]);
      const wrongKey = new OpenAI({
        baseURL: `${endpoint.url}/v1`,
        apiKey: 'sk-wrong',
        maxRetries: 0,
      });
      const refused = await wrongKey.chat.completions
        .create({ model, messages: [], stream: true })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).to.be.instanceOf(OpenAI.AuthenticationError);
      endpoint.requests.length = 0;

      // The example as its users start it: the live model is chosen from the environment.
      const [, url = '', kind] = await lineOf(
        example.stdout,
        /^callfold agent server: (\S+) \((live|recorded) model\)$/m,
      );
      expect(kind).to.equal('live');
      const headers = { authorization: 'Bearer live-token' };
      let release = () => {};
      endpoint.hold(new Promise<void>((resolve) => (release = resolve)));
      const { events } = await startRun(url, headers);

      // The follower's Conversation is the fold of the durable history.
      const { seen, shown } = await followRun(events, headers, 1, (input) => {
        // Listening: the model may answer now.
        if (input.type === 'turn/start') release();
      });
      // The call streamed in before it was dispatched.
      const previews = seen.filter((type) => type === 'stream/tool-call-delta').length;
      expect(previews, stderr).to.be.greaterThan(1);
      expect(seen.indexOf('stream/tool-call-delta')).to.be.lessThan(seen.indexOf('tool/call'));

      // Its calls are the recording's, each answered by the sandbox; then the closing answer.
      expect(calls(shown)).to.deep.equal(recordedCalls);
      for (const tool of shown.tools.values()) {
        expect(String(tool.result?.output)).to.match(/^Not run: .*\(test-tool\)/);
      }
      const text = answer.stream.flatMap(({ event }) =>
        event.type === 'stream/text-delta' && !event.reasoning ? [event.text] : [],
      );
      expect(shown.items.at(-1)).to.include({ kind: 'assistant', text: text.join('') });

      // What the example sent: the model, its tools, then the call and its result returned.
      const [ask, followUp, ...more] = endpoint.requests;
      expect(more).to.deep.equal([]);
      expect(ask).to.include({ model, stream: true });
      expect(ask?.tools?.map((tool) => tool.function.name)).to.deep.equal([
        'read_file',
        'list_files',
      ]);
      expect(ask?.messages.map((message) => message.role)).to.deep.equal(['system', 'user']);
      expect(ask?.messages[1]?.content).to.equal(prompt);
      const [callId] = recordedCalls[0] ?? [];
      expect(followUp?.messages.slice(2)).to.deep.equal([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: callId,
              type: 'function',
              function: { name: 'test-tool', arguments: '{"value":"Sparkle Day"}' },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: callId,
          content: shown.tools.get(String(callId))?.result?.output,
        },
      ]);
    } finally {
      if (example.exitCode === null) {
        example.kill('SIGINT');
        // Its own SIGINT handler closes it; a process stuck closing is killed, not left behind.
        const stuck = setTimeout(() => example.kill('SIGKILL'), 5_000);
        await once(example, 'exit');
        clearTimeout(stuck);
      }
      await endpoint.close();
    }
    expect(example.exitCode, stderr).to.equal(0);
  });

  // Failed before: they waited for turn/end forever.
  it('a wrong key: 401 to the request and its two retries, the run fails with the status (GET /sessions/<id>/run, token holder only), and the turn ends for followers', {
    timeout: 30_000,
  }, async () => {
    const endpoint = await chatCompletionsEndpoint(key, recorded, closing);
    const server = await startAgentServer({
      page: false,
      token: 'test-token',
      model: modelFromEnvironment({
        OPENAI_BASE_URL: `${endpoint.url}/v1`,
        OPENAI_API_KEY: 'sk-wrong',
        OPENAI_MODEL: model,
      }),
    });
    try {
      const headers = { authorization: 'Bearer test-token' };
      const { sessionId, events } = await startRun(server.url, headers);
      const seen = await lastValueFrom(
        followSession(events, { headers, retryMs: 20 }).pipe(
          takeWhile((input) => input.type !== 'turn/end', true),
          timeout(10_000),
          toArray(),
        ),
      );
      const types = seen.map((input) => input.type);
      expect(types.filter((type) => type !== 'connection/reconnect')).to.deep.equal([
        'turn/start',
        'turn/end',
      ]);
      const failure = await server.runs.get(sessionId)?.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(String(failure)).to.match(/HTTP 401/);
      expect(endpoint.requests).to.have.length(3);
      // The page's status line asks why: the run's state carries the failure as text.
      const state = await fetch(`${server.url}sessions/${sessionId}/run`, { headers });
      expect(state.status).to.equal(200);
      const body = (await state.json()) as { state: string; error: string };
      expect(body.state).to.equal('failed');
      expect(body.error).to.match(/HTTP 401/);
      expect(body.error.length).to.be.at.most(500);
      // Without the token, nothing: not even whether the run exists.
      for (const id of [sessionId, 'run-000000000000']) {
        expect((await fetch(`${server.url}sessions/${id}/run`)).status).to.equal(401);
        const wrong = { authorization: 'Bearer nope' };
        expect(
          (await fetch(`${server.url}sessions/${id}/run`, { headers: wrong })).status,
        ).to.equal(403);
      }
      expect(
        (await fetch(`${server.url}sessions/run-000000000000/run`, { headers })).status,
      ).to.equal(404);
    } finally {
      await server.close();
      await endpoint.close();
    }
  });
});
