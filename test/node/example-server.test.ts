/**
 * examples/server: the agent server run as its users run it — on a free loopback port, the
 * recorded model streamed through the real Chat Completions adapter (at 80× its recorded
 * pace), the tools run in the sandbox, everything recorded with recordAttempt — and
 * followed over HTTP with followSession: the follower's final Conversation equals the fold of
 * the session's durable history, with the tools' real results. Then the sandbox's refusals.
 */
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { lastValueFrom, takeWhile, tap } from 'rxjs';
import { recordedModel } from '../../examples/server/models.js';
import { Sandbox } from '../../examples/server/sandbox-tools.js';
import { type AgentServer, sandboxFiles, startAgentServer } from '../../examples/server/server.js';
import { Assembler } from '../../src/conversation/assembler.js';
import { loadHistory } from '../../src/events/load-history.js';
import { isDurableEvent } from '../../src/events/types.js';
import { followSession } from '../../src/rx/follow-session.js';
import { project } from '../assembler/support/driver.js';
import { repositoryRoot } from './support/repository.js';
import { demoEvents, follower } from './support/session-fold.js';

const transcript = join(repositoryRoot(), 'examples/transcripts/demo-session.jsonl');

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
    const started = await fetch(`${server.url}sessions`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(started.status).to.equal(201);
    const { sessionId } = (await started.json()) as { sessionId: string };
    const url = `${server.url}sessions/${sessionId}/events`;
    // Unauthorized readers learn nothing, not even that the run exists.
    expect((await fetch(url)).status).to.equal(401);

    const reader = follower();
    let turnsEnded = 0;
    let previewed = 0;
    await lastValueFrom(
      followSession(url, { headers, retryMs: 20 }).pipe(
        tap((input) => {
          reader.take(input);
          if (input.type === 'stream/tool-call-delta') previewed++;
          if (input.type === 'turn/end') turnsEnded++;
        }),
        takeWhile(() => turnsEnded < 2, true),
      ),
      { defaultValue: undefined },
    );
    await server.runs.get(sessionId);
    const history = await loadHistory(url, { limit: 1000, headers });
    const fold = new Assembler();
    fold.push(history);
    const shown = reader.assembler.publish();
    expect(project(shown)).to.deep.equal(project(fold.publish()));
    // Calls streamed in before they were dispatched, and every durable event came once.
    expect(previewed).to.be.greaterThan(100);
    expect(reader.durable).to.deep.equal(history.map((event) => event.seq));

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
