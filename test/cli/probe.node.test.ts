/**
 * `callfold probe` end to end against a fake provider on 127.0.0.1 that answers in the
 * OpenAI and Anthropic streaming wire formats with scripted argument orders, 429s, 5xx,
 * slow responses, malformed chunks and a 401. Node only (a loopback server).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { type CliIo, main } from '../../src/cli/cli.js';
import type { ProbeReport } from '../../src/cli/probe/report.js';
import { builtinVariant, type VariantName, variantNames } from '../../src/cli/probe/variants.js';

const skip = 'Deno' in globalThis ? 'needs a loopback server (Node only)' : false;
const key = 'sk-test-0123456789-do-not-print';

/** What the fake provider does with one request. */
type Step =
  | { readonly key: string }
  | { readonly text: string }
  | { readonly status: number; readonly retryAfterMs?: number; readonly echoKey?: boolean }
  | { readonly slow: true }
  | { readonly drop: true }
  | { readonly malformed: true }
  | { readonly errorEvent: string };

interface Received {
  readonly cell: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which variant a request's schema is (by its exact JSON text). */
function variantOf(tool: string, schema: unknown): VariantName {
  const text = JSON.stringify(schema);
  const found = variantNames.find(
    (variant) => JSON.stringify(builtinVariant(tool as 'bash', variant).jsonSchema) === text,
  );
  if (found === undefined) throw new Error(`unknown schema for ${tool}: ${text}`);
  return found;
}

/** Arguments whose first key is `first`, with the tool's other fields after it. */
function argumentsText(first: string): string {
  const rest: Record<string, string> = {
    description: 'List files',
    command: 'ls -la',
    file_path: '/tmp/a',
    content: 'hi',
    old_string: 'a',
    new_string: 'b',
  };
  const object: Record<string, string> = { [first]: 'x'.repeat(8) };
  for (const [name, value] of Object.entries(rest)) if (name !== first) object[name] = value;
  return JSON.stringify(object);
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

class FakeProvider {
  readonly received: Received[] = [];
  readonly #script = new Map<string, Step[]>();
  #server: Server | undefined;
  url = '';

  script(cell: string, steps: readonly Step[]): this {
    this.#script.set(cell, [...steps]);
    return this;
  }

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      res.on('error', () => undefined);
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void this.#answer(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8')));
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }

  async #answer(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) {
    const anthropic = req.url === '/v1/messages';
    const tools = body.tools as Record<string, unknown>[];
    const offered = tools[0] as Record<string, unknown>;
    const fn = (anthropic ? offered : offered.function) as Record<string, unknown>;
    const name = fn.name as string;
    const variant = variantOf(name, anthropic ? fn.input_schema : fn.parameters);
    const choice =
      body.tool_choice === 'auto' || (body.tool_choice as { type?: string }).type === 'auto'
        ? 'free'
        : 'forced';
    const cell = `${name}/${variant}/${choice}`;
    this.received.push({ cell, headers: req.headers, body });
    const step = this.#script.get(cell)?.shift();
    if (step === undefined) {
      res.writeHead(418).end(`no script left for ${cell}`);
      return;
    }
    if ('status' in step) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
      const auth = String(req.headers.authorization ?? req.headers['x-api-key'] ?? '');
      const message = step.echoKey ? `bad request from ${auth}` : `status ${step.status}`;
      res.writeHead(step.status, headers).end(JSON.stringify({ error: { message } }));
      return;
    }
    if ('drop' in step) {
      // A network error: the connection goes before any answer.
      req.socket.destroy();
      return;
    }
    if ('slow' in step) {
      // Never answers: holds the request until the client gives up on it.
      await new Promise((resolve) => res.on('close', resolve));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const events = anthropic ? anthropicEvents(step, name) : openAIEvents(step, name);
    for (const event of events) {
      if (res.destroyed) return;
      res.write(event);
      await sleep(1);
    }
    res.end();
  }
}

function openAIEvents(step: Step, name: string): string[] {
  const chunk = (delta: object) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
  const events = [chunk({ role: 'assistant', content: null })];
  if ('text' in step) events.push(chunk({ content: step.text }));
  if ('errorEvent' in step)
    events.push(`data: ${JSON.stringify({ error: { message: step.errorEvent } })}\n\n`);
  if ('malformed' in step) events.push('data: {"choices":[{"delta":\n\n');
  if ('key' in step) {
    events.push(
      chunk({
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } },
        ],
      }),
    );
    for (const piece of pieces(argumentsText(step.key), 5)) {
      events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    }
  }
  events.push(
    `data: ${JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
    'data: [DONE]\n\n',
  );
  return events;
}

function anthropicEvents(step: Step, name: string): string[] {
  const event = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const events = [
    event('message_start', {
      message: { id: 'msg_1', type: 'message', role: 'assistant', content: [] },
    }),
    event('ping', {}),
  ];
  if ('text' in step) {
    events.push(
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: step.text } }),
      event('content_block_stop', { index: 0 }),
    );
  }
  if ('errorEvent' in step)
    events.push(event('error', { error: { type: 'overloaded_error', message: step.errorEvent } }));
  if ('malformed' in step) events.push('event: content_block_delta\ndata: {"type":\n\n');
  if ('key' in step) {
    events.push(
      event('content_block_start', {
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name, input: {} },
      }),
    );
    events.push(
      event('content_block_delta', {
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '' },
      }),
    );
    for (const piece of pieces(argumentsText(step.key), 4)) {
      events.push(
        event('content_block_delta', {
          index: 0,
          delta: { type: 'input_json_delta', partial_json: piece },
        }),
      );
    }
    events.push(event('content_block_stop', { index: 0 }));
  }
  events.push(
    event('message_delta', { delta: { stop_reason: 'tool_use' } }),
    event('message_stop', {}),
  );
  return events;
}

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: ProbeReport;
  readonly reportText: string;
}

async function probe(
  argv: readonly string[],
  env: Record<string, string>,
  interruptAfter?: number,
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const files = new Map<string, string>();
  let interrupt: (() => void) | undefined;
  let progressLines = 0;
  const io: CliIo = {
    env,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
      if (interruptAfter !== undefined && ++progressLines === interruptAfter) interrupt?.();
    },
    writeFile: async (path, text) => {
      files.set(path, text);
    },
    onInterrupt: (handler) => {
      interrupt = handler;
    },
  };
  const status = await main(['probe', ...argv, '--report', 'report.json'], io);
  const reportText = files.get('report.json') ?? 'null';
  return { status, stdout, stderr, report: JSON.parse(reportText) as ProbeReport, reportText };
}

// Runs whose requests are all answered never reach the timeout, however loaded the machine;
// only `timingOut`, whose every request is held unanswered, waits for it.
const fast = ['--timeout', '120s', '--backoff', '5ms', '--concurrency', '4'];
const timingOut = ['--timeout', '1500ms', '--backoff', '5ms', '--concurrency', '4'];

describe('callfold probe against a fake OpenAI-compatible server', { skip }, () => {
  const server = new FakeProvider();
  let run: Run;

  before(async () => {
    await server.start();
    const same = (step: Step) => [step, step, step];
    for (const tool of ['bash', 'write']) {
      const label = tool === 'bash' ? 'description' : 'file_path';
      const other = tool === 'bash' ? 'command' : 'content';
      for (const choice of ['free', 'forced']) {
        server.script(`${tool}/baseline/${choice}`, same({ key: other }));
        server.script(`${tool}/properties/${choice}`, same({ key: other }));
        server.script(`${tool}/required/${choice}`, same({ key: label }));
        server.script(`${tool}/sentence/${choice}`, same({ key: label }));
      }
    }
    server
      .script('bash/baseline/free', [
        { status: 429, retryAfterMs: 10 },
        { key: 'command' },
        { key: 'command' },
        { key: 'description' },
      ])
      .script('bash/baseline/forced', [
        { status: 500 },
        { key: 'command' },
        { key: 'command' },
        { key: 'command' },
      ])
      .script('bash/properties/free', [
        { key: 'command' },
        { text: 'I would rather not.' },
        { key: 'command' },
      ])
      .script('bash/required/free', [
        { key: 'description' },
        { key: 'description' },
        { key: 'command' },
      ])
      .script('bash/required/forced', [
        { drop: true },
        { key: 'description' },
        { key: 'description' },
        { key: 'description' },
      ])
      .script('bash/sentence/free', [
        { key: 'description' },
        { malformed: true },
        { key: 'description' },
      ])
      .script('write/properties/free', [
        { status: 429 },
        { status: 503 },
        { key: 'content' },
        { key: 'content' },
        { key: 'file_path' },
      ])
      .script('write/sentence/forced', [
        { status: 400, echoKey: true },
        { key: 'file_path' },
        { key: 'file_path' },
      ])
      .script('write/required/free', [
        { key: 'file_path' },
        { errorEvent: 'upstream overloaded' },
        { key: 'content' },
        { key: 'file_path' },
      ]);
    run = await probe(
      [
        '--model',
        'fake-v4',
        '--base-url',
        `${server.url}/v1`,
        '--n',
        '3',
        '--tools',
        'bash,write',
        ...fast,
      ],
      { OPENAI_API_KEY: key },
    );
  });

  after(() => server.stop());

  it('prints the seed table from the scripted first keys', () => {
    expect(run.stdout).to.equal(
      [
        'callfold probe: openai · fake-v4 · 3 requests per cell',
        'A cell counts the calls whose first argument key is the label field: description (bash), file_path (write).',
        '',
        '| Variant               | Change                                     | bash free       | bash forced | write free | write forced  |',
        '|-----------------------|--------------------------------------------|-----------------|-------------|------------|---------------|',
        '| Baseline              | —                                          | 1/3             | 0/3         | 0/3        | 0/3           |',
        '| properties order only | label field moved first in properties      | 0/3 (1 no call) | 0/3         | 1/3        | 0/3           |',
        '| properties + required | same, and required reordered with it       | 2/3             | 3/3         | 2/3        | 3/3           |',
        '| + ordering sentence   | appends the ordering sentence to the label | 2/3 (1 error)   | 3/3         | 3/3        | 2/3 (1 error) |',
        '',
      ].join('\n'),
    );
    expect(run.status).to.equal(0);
  });

  it('writes a JSON report whose cells match the script', () => {
    const { report } = run;
    expect(report.report).to.equal('callfold-probe');
    expect(report.url).to.equal(`${server.url}/v1/chat/completions`);
    expect(report.totals).to.deep.equal({
      requests: 48,
      done: 48,
      attempts: 54,
      retries: 6,
      errors: 2,
    });
    const byCell = new Map(
      report.cells.map((cell) => [`${cell.tool}/${cell.variant}/${cell.choice}`, cell]),
    );
    expect(byCell.get('bash/baseline/free')).to.deep.include({
      hits: 1,
      calls: 3,
      noCall: 0,
      errors: 0,
      firstKeys: { command: 2, description: 1 },
    });
    expect(byCell.get('bash/properties/free')).to.deep.include({
      hits: 0,
      calls: 2,
      noCall: 1,
      firstKeys: { command: 2 },
    });
    expect(
      byCell
        .get('bash/required/forced')
        ?.samples.map((s) => s.attempts)
        .sort(),
    ).to.deep.equal([1, 1, 2]);
    const malformed = byCell
      .get('bash/sentence/free')
      ?.samples.find((s) => s.outcome.kind === 'error');
    expect(malformed?.outcome).to.deep.equal({
      kind: 'error',
      error: 'malformed chunk: "{\\"choices\\":[{\\"delta\\":"',
    });
    expect(malformed?.attempts).to.equal(1);
    const rejected = byCell
      .get('write/sentence/forced')
      ?.samples.find((s) => s.outcome.kind === 'error');
    expect(rejected?.outcome).to.deep.equal({
      kind: 'error',
      error: 'HTTP 400 Bad Request: bad request from Bearer [redacted key]',
      status: 400,
    });
    const attempts = byCell.get('write/properties/free')?.samples.map((s) => s.attempts);
    expect(attempts?.reduce((a, b) => a + b)).to.equal(5);
    expect(report.schemas.bash?.baseline?.required).to.deep.equal(['command', 'description']);
    expect(report.schemas.write?.sentence?.required).to.deep.equal(['file_path', 'content']);
  });

  it('sends the key only in the auth header, and never prints or writes it', () => {
    for (const { headers } of server.received)
      expect(headers.authorization).to.equal(`Bearer ${key}`);
    for (const text of [run.stdout, run.stderr, run.reportText]) expect(text).not.to.include(key);
    expect(run.reportText).to.include('[redacted key]');
  });

  it('sends streamed chat requests offering the variant tool alone, auto or forced', () => {
    const forced = server.received.find((r) => r.cell === 'write/sentence/forced');
    const free = server.received.find((r) => r.cell === 'bash/baseline/free');
    if (forced === undefined || free === undefined) throw new Error('requests missing');
    expect(forced.body).to.deep.include({
      model: 'fake-v4',
      stream: true,
      tool_choice: { type: 'function', function: { name: 'write' } },
    });
    expect((forced.body.tools as unknown[]).length).to.equal(1);
    expect(free.body.tool_choice).to.equal('auto');
    expect((free.body.messages as { role: string }[]).map((m) => m.role)).to.deep.equal([
      'system',
      'user',
    ]);
  });

  it('shows progress and a summary on stderr', () => {
    expect(run.stderr).to.match(
      /^callfold probe: openai fake-v4, 3 x 2 tools \(bash, write\) x 4 variants x 2 choices\n/,
    );
    expect(run.stderr).to.include('▕████████████████████████▏ 48/48');
    expect(run.stderr).to.match(/48\/48 requests in \d+s · 54 attempts · 6 retries · 2 errors\n/);
    expect(run.stderr).to.include('report: report.json');
  });
});

describe('callfold probe against a fake Anthropic server', { skip }, () => {
  const server = new FakeProvider();
  after(() => server.stop());

  it('reads input_json_delta, retries 529 and overloaded error events, and prints the table', async () => {
    await server.start();
    server
      .script('edit/baseline/forced', [{ key: 'old_string' }, { key: 'file_path' }])
      .script('edit/sentence/forced', [
        { status: 529 },
        { errorEvent: 'Overloaded' },
        { key: 'file_path' },
        { key: 'file_path' },
      ]);
    const run = await probe(
      [
        '--provider',
        'anthropic',
        '--model',
        'claude-fake',
        '--base-url',
        server.url,
        '--n',
        '2',
        '--tools',
        'edit',
        '--variants',
        'baseline,sentence',
        '--choice',
        'forced',
        ...fast,
      ],
      { ANTHROPIC_API_KEY: key },
    );
    expect(run.stdout).to.equal(
      [
        'callfold probe: anthropic · claude-fake · 2 requests per cell',
        'A cell counts the calls whose first argument key is the label field: file_path (edit).',
        '',
        '| Variant             | Change                                     | edit forced |',
        '|---------------------|--------------------------------------------|-------------|',
        '| Baseline            | —                                          | 1/2         |',
        '| + ordering sentence | appends the ordering sentence to the label | 2/2         |',
        '',
      ].join('\n'),
    );
    expect(run.report.totals).to.deep.equal({
      requests: 4,
      done: 4,
      attempts: 6,
      retries: 2,
      errors: 0,
    });
    expect(run.report.url).to.equal(`${server.url}/v1/messages`);
    for (const { headers, body } of server.received) {
      expect(headers['x-api-key']).to.equal(key);
      expect(headers['anthropic-version']).to.equal('2023-06-01');
      expect(body.tool_choice).to.deep.equal({ type: 'tool', name: 'edit' });
      expect(body.max_tokens).to.equal(1024);
    }
    for (const text of [run.stdout, run.stderr, run.reportText]) expect(text).not.to.include(key);
  });
});

describe('callfold probe when requests keep failing', { skip }, () => {
  const server = new FakeProvider();
  before(() => server.start());
  after(() => server.stop());

  it('records a timeout as an error once the retries are spent', async () => {
    server.script('read/baseline/free', [{ slow: true }, { slow: true }]);
    const run = await probe(
      [
        '--model',
        'm',
        '--base-url',
        server.url,
        '--n',
        '1',
        '--tools',
        'read',
        '--variants',
        'baseline',
        '--choice',
        'free',
        '--retries',
        '1',
        ...timingOut,
      ],
      { OPENAI_API_KEY: key },
    );
    const sample = run.report.cells[0]?.samples[0];
    expect(sample?.outcome).to.deep.equal({ kind: 'error', error: 'timed out after 1.5 s' });
    expect(sample?.attempts).to.equal(2);
    expect(run.stdout).to.include('| 0/1 (1 error) |');
    expect(run.stderr).to.include('  1 x timed out after 1.5 s');
    expect(run.status).to.equal(0);
  });

  it('stops the whole run on a 401 and exits 1', async () => {
    server.script('read/baseline/forced', [
      { status: 401 },
      { key: 'file_path' },
      { key: 'file_path' },
    ]);
    const run = await probe(
      [
        '--model',
        'm',
        '--base-url',
        server.url,
        '--n',
        '3',
        '--tools',
        'read',
        '--variants',
        'baseline',
        '--choice',
        'forced',
        ...fast,
        '--concurrency',
        '1',
      ],
      { OPENAI_API_KEY: key },
    );
    expect(run.status).to.equal(1);
    expect(run.report.stopped).to.equal('HTTP 401 Unauthorized: status 401');
    expect(run.report.totals).to.deep.include({ requests: 3, done: 1, errors: 1 });
    expect(run.stderr).to.include('stopped early: HTTP 401 Unauthorized: status 401');
  });

  it('stops after an interrupt, reports what finished, and exits 130', async () => {
    // read's variants are all the same schema: the fake server sees each as the baseline.
    server.script(
      'read/baseline/free',
      Array.from({ length: 6 }, () => ({ key: 'file_path' })),
    );
    const run = await probe(
      [
        '--model',
        'm',
        '--base-url',
        server.url,
        '--n',
        '6',
        '--tools',
        'read',
        '--variants',
        'baseline',
        '--choice',
        'free',
        ...fast,
        '--concurrency',
        '1',
      ],
      {},
      3,
    );
    expect(run.status).to.equal(130);
    expect(run.report.stopped).to.equal('interrupted');
    expect(run.report.totals.done).to.be.within(1, 5);
    expect(server.received.at(-1)?.headers.authorization, 'no key for a loopback server').to.equal(
      undefined,
    );
  });
});

describe('bin/callfold.mjs', { skip }, () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const built = existsSync(`${root}/dist/src/cli/cli.js`);

  it('prints the probe help from the built package', {
    skip: built ? false : 'run npm run build first',
  }, () => {
    const result = spawnSync(process.execPath, [`${root}/bin/callfold.mjs`, 'probe', '--help'], {
      encoding: 'utf8',
    });
    expect(result.status).to.equal(0);
    expect(result.stdout).to.match(/^Usage: callfold probe --model NAME/);
  });
});
