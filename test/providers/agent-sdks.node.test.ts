/**
 * fromClaudeCode and fromCodex fed by the real agent SDKs: `query()` of
 * @anthropic-ai/claude-agent-sdk and `Thread.runStreamed()` of @openai/codex-sdk, each
 * spawning a fake CLI (a small Node script, written to a temporary folder) that prints
 * recorded lines on stdout as the real `claude`/`codex` would. The fake claude answers the
 * SDK's `initialize` control request, then prints its lines when the prompt arrives. What the
 * SDKs yield folds to the same events as the lines themselves. Node only (child processes).
 */
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getSessionMessages, query } from '@anthropic-ai/claude-agent-sdk';
import { Codex } from '@openai/codex-sdk';
import { expect } from 'chai';
import { Assembler } from '../../src/conversation/assembler.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { fromClaudeCode } from '../../src/providers/claude-code.js';
import { fromCodex } from '../../src/providers/codex.js';
import type { ProviderSource } from '../../src/providers/provider-source.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { project } from '../assembler/support/driver.js';
import { repositoryRoot } from '../support/repository.js';
import { fixedSession } from './support/cases.js';
import { collect } from './support/fixtures.js';
import { checkInvariants } from './support/invariants.js';

const recordings = join(repositoryRoot(), 'test/fixtures/provider-recordings');

/** Prints the lines of $FAKE_LINES once the prompt (a `user` message) arrives on stdin. */
const fakeClaude = `#!/usr/bin/env node
import { appendFileSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
appendFileSync(process.env.FAKE_ARGV, JSON.stringify(process.argv.slice(2)) + '\\n');
appendFileSync(process.env.FAKE_ARGV + '.pid', process.pid + '\\n');
const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.type === 'control_request') {
    const response = { subtype: 'success', request_id: message.request_id, response: {} };
    process.stdout.write(JSON.stringify({ type: 'control_response', response }) + '\\n');
  } else if (message.type === 'user') {
    const text = readFileSync(process.env.FAKE_LINES, 'utf8');
    // FAKE_HANG: print the lines, then run on (a session that has not ended).
    if (process.env.FAKE_HANG) process.stdout.write(text, () => setInterval(() => {}, 60_000));
    else process.stdout.write(text, () => process.exit(0));
  }
});
`;

/** Reads the prompt from stdin, then prints the lines of $FAKE_LINES, as \`codex exec --json\`. */
const fakeCodex = `#!/usr/bin/env node
import { appendFileSync, readFileSync } from 'node:fs';
appendFileSync(process.env.FAKE_ARGV, JSON.stringify(process.argv.slice(2)) + '\\n');
process.stdin.resume();
process.stdin.on('end', () => {
  process.stdout.write(readFileSync(process.env.FAKE_LINES, 'utf8'), () => process.exit(0));
});
`;

let folder = '';
const path = (name: string) => join(folder, name);

before(() => {
  folder = mkdtempSync(join(tmpdir(), 'callfold-agents-'));
  for (const [name, text] of [
    ['claude.mjs', fakeClaude],
    ['codex.mjs', fakeCodex],
  ] as const) {
    writeFileSync(path(name), text);
    chmodSync(path(name), 0o755);
  }
});
after(() => rmSync(folder, { recursive: true, force: true }));

/** The argv each fake was started with, one per start. */
function argvs(log: string): string[][] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as string[]);
}

async function fold(
  adapter: typeof fromClaudeCode | typeof fromCodex,
  source: ProviderSource,
): Promise<CallfoldEvent[]> {
  const outcome = await collect(adapter(source, { session: fixedSession() }));
  expect(outcome.error).to.equal(undefined);
  checkInvariants(outcome.events);
  return outcome.events;
}

function conversation(events: readonly CallfoldEvent[]): unknown {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return project(assembler.publish());
}

/** Runs `query()` against the fake claude printing `file` (a full path). */
function claudeQuery(file: string, log: string, includePartialMessages: boolean, hang = false) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    FAKE_LINES: file,
    FAKE_ARGV: log,
  };
  if (hang) env.FAKE_HANG = '1';
  return query({
    prompt: 'list the files here',
    options: { pathToClaudeCodeExecutable: path('claude.mjs'), includePartialMessages, env },
  });
}

/** Resolves once process `pid` is gone (polled: a condition, not a timing). */
function exited(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const poll = () => {
      try {
        process.kill(pid, 0);
        setTimeout(poll, 10);
      } catch {
        resolve();
      }
    };
    poll();
  });
}

describe('fromClaudeCode through the Claude Agent SDK (query() and a fake claude)', () => {
  it('partial messages: the SDK messages fold as the lines do, and live equals history', async () => {
    const file = 'built-from-types/claude-code-partial-messages.jsonl';
    const log = path('claude-partial.argv');
    const events = await fold(fromClaudeCode, claudeQuery(join(recordings, file), log, true));
    const [argv] = argvs(log);
    expect(argv).to.include.members(['--output-format', 'stream-json', '--verbose']);
    expect(argv).to.include('--include-partial-messages');
    expect(events).to.deep.equal(
      await fold(fromClaudeCode, readFileSync(join(recordings, file), 'utf8')),
    );
    expect(events.filter((e) => e.type === 'stream/tool-call-delta').length).to.be.greaterThan(2);
    expect(events.filter((e) => e.type === 'tool/result')).to.have.length(1);
    expect(conversation(events.filter(isDurableEvent))).to.deep.equal(conversation(events));
  });

  it('whole messages (the recorded capture): the Bash call and its result', async () => {
    const lines = ['assistant_message.json', 'user_message.json']
      .map((f) =>
        JSON.stringify(
          JSON.parse(readFileSync(join(recordings, 'claude-agent-sdk-gleam', f), 'utf8')),
        ),
      )
      .join('\n');
    const file = path('gleam.jsonl');
    writeFileSync(file, `${lines}\n`);
    const log = path('claude-whole.argv');
    const events = await fold(fromClaudeCode, claudeQuery(file, log, false));
    expect(argvs(log)[0]).to.not.include('--include-partial-messages');
    expect(events).to.deep.equal(await fold(fromClaudeCode, lines));
    expect(
      events.filter((e) => e.type === 'tool/call').map((e) => e.type === 'tool/call' && e.name),
    ).to.deep.equal(['Bash']);
    expect(conversation(events.filter(isDurableEvent))).to.deep.equal(conversation(events));
  });
});

describe('fromClaudeCode on transcripts read by the SDK (getSessionMessages)', () => {
  it('the SDK reads the transcript file; as history it folds to what the file folds to', async () => {
    const transcript = join(recordings, 'built-from-types/claude-code-session-transcript.jsonl');
    const sessionId = '40e7b02d-c0f9-4876-9010-f514d4eb0603';
    const project = path('project');
    const projects = join(path('config'), 'projects', project.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(project, { recursive: true });
    mkdirSync(projects, { recursive: true });
    copyFileSync(transcript, join(projects, `${sessionId}.jsonl`));
    const before = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = path('config');
    let messages: unknown[];
    try {
      messages = await getSessionMessages(sessionId, { dir: project });
    } finally {
      if (before === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = before;
    }
    expect(messages).to.have.length(5);
    const outcome = await collect(
      fromClaudeCode(messages, { session: fixedSession(), history: true }),
    );
    expect(outcome.error).to.equal(undefined);
    expect(outcome.events.every(isDurableEvent)).to.equal(true);
    const file = await collect(
      fromClaudeCode(readFileSync(transcript, 'utf8'), { session: fixedSession() }),
    );
    expect(outcome.events.filter(isDurableEvent).map(({ at: _at, ...rest }) => rest)).to.deep.equal(
      file.events.filter(isDurableEvent).map(({ at: _at, ...rest }) => rest),
    );
    expect(outcome.events.filter((e) => e.type === 'tool/result')).to.have.length(1);
  });
});

describe('fromClaudeCode: unsubscribing', () => {
  it('stops the SDK query: its claude process ends', async () => {
    const file = join(recordings, 'built-from-types/claude-code-whole-messages.jsonl');
    const log = path('claude-hang.argv');
    const events: CallfoldEvent[] = [];
    await new Promise<void>((resolve) => {
      const subscription = fromClaudeCode(claudeQuery(file, log, false, true), {
        session: fixedSession(),
      }).subscribe((event) => {
        events.push(event);
        if (event.type === 'tool/result') {
          subscription.unsubscribe();
          resolve();
        }
      });
    });
    const pid = Number(readFileSync(`${log}.pid`, 'utf8').trim());
    await exited(pid);
    expect(events.filter((e) => e.type === 'tool/call')).to.have.length(1);
  });
});

describe('fromCodex through @openai/codex-sdk (runStreamed() and a fake codex)', () => {
  const codex = (file: string, log: string) =>
    new Codex({
      codexPathOverride: path('codex.mjs'),
      env: { PATH: process.env.PATH ?? '', FAKE_LINES: file, FAKE_ARGV: log },
    });

  for (const file of [
    'codex/exec-json-docs-sample.jsonl',
    'agentcmd/codex-0.46-file-creation.jsonl',
    'built-from-types/codex-sdk-call-items.jsonl',
  ]) {
    it(`${file}: the SDK's thread events fold as the lines do, and live equals history`, async () => {
      const log = path(`${file.replace(/\W/g, '_')}.argv`);
      const { events: thread } = await codex(join(recordings, file), log)
        .startThread()
        .runStreamed('go');
      const events = await fold(fromCodex, thread);
      expect(argvs(log)[0]?.slice(0, 2)).to.deep.equal(['exec', '--experimental-json']);
      expect(events).to.deep.equal(
        await fold(fromCodex, readFileSync(join(recordings, file), 'utf8')),
      );
      expect(events.some((e) => e.type === 'tool/result')).to.equal(true);
      expect(conversation(events.filter(isDurableEvent))).to.deep.equal(conversation(events));
    });
  }

  it('a failed turn through the SDK fails with a ProviderStreamError after the settle', async () => {
    const file = path('failed.jsonl');
    writeFileSync(
      file,
      [
        { type: 'thread.started', thread_id: 't1' },
        { type: 'turn.started' },
        {
          type: 'item.started',
          item: {
            id: 'item_0',
            type: 'command_execution',
            command: 'ls',
            aggregated_output: '',
            status: 'in_progress',
          },
        },
        { type: 'turn.failed', error: { message: 'stream disconnected' } },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    const { events: thread } = await codex(file, path('failed.argv'))
      .startThread()
      .runStreamed('go');
    const outcome = await collect(fromCodex(thread, { session: fixedSession() }));
    expect(outcome.error).to.be.instanceOf(ProviderStreamError);
    expect(outcome.events.map((e) => e.type).slice(-2)).to.deep.equal([
      'tool/call',
      'stream/settle',
    ]);
  });
});
