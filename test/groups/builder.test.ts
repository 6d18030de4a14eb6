import { expect } from 'chai';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import { Builder } from '../../src/groups/builder.js';
import { groupProbe } from '../../src/tools/probe.js';
import { describe, it } from '../harness.js';
import {
  assembler,
  callIds,
  groupsOf,
  onlyGroup,
  shape,
  streamedCall,
  textDelta,
  toolCall,
  toolDelta,
  toolResult,
} from './support.js';

describe('Builder: runs and breaks', () => {
  it('makes one group of consecutive tool calls, from preparation on', () => {
    const session = assembler();
    session.push([
      toolDelta('a1', 0, 'c1', '{"file_path":"a.ts"}', 'Read'),
      toolDelta('a1', 1, 'c2', '{"command":"ls"}', 'Bash'),
    ]);
    const conversation = session.publish();
    expect(shape(conversation)).to.deep.equal(['group:c1']);
    const group = onlyGroup(conversation);
    expect(callIds(group)).to.deep.equal(['c1', 'c2']);
    expect(group.tools.map((tool) => tool.stage)).to.deep.equal(['preparing', 'preparing']);
    expect(conversation.tools.get('c2')).to.equal(group.tools[1]);
  });

  it('keeps tools of responses without text in one run, across attempts and stages', () => {
    const session = assembler();
    session.push([
      toolDelta('a1', 0, 'c1', '{"file_path":"a.ts"}', 'Read'),
      {
        type: 'stream/block-end',
        attemptId: 'a1',
        block: 0,
        callId: 'c1',
        text: '{"file_path":"a.ts"}',
      },
      toolCall(1, 'c1', 'Read', '{"file_path":"a.ts"}'),
      { type: 'stream/settle', attemptId: 'a1' },
      toolResult(2, 'c1', 'contents'),
      toolDelta('a2', 0, 'c2', '{"command":"ls"}', 'Bash'),
    ]);
    const group = onlyGroup(session.publish());
    expect(callIds(group)).to.deep.equal(['c1', 'c2']);
    expect(group.tools.map((tool) => tool.stage)).to.deep.equal(['result', 'preparing']);
  });

  it('breaks a run at assistant text or reasoning', () => {
    const session = assembler();
    session.push([
      toolDelta('a1', 0, 'c1', '{}', 'Read'),
      textDelta('a2', 0, 'Now the tests.'),
      toolDelta('a2', 1, 'c2', '{}', 'Bash'),
      toolDelta('a2', 2, 'c3', '{}', 'Bash'),
      { type: 'stream/text-delta', attemptId: 'a3', block: 0, text: 'Hmm', reasoning: true },
      toolDelta('a3', 1, 'c4', '{}', 'Edit'),
    ]);
    const conversation = session.publish();
    expect(shape(conversation)).to.deep.equal([
      'group:c1',
      'assistant:a2',
      'group:c2',
      'assistant:a3',
      'group:c4',
    ]);
    expect(groupsOf(conversation).map(callIds)).to.deep.equal([['c1'], ['c2', 'c3'], ['c4']]);
  });

  it('shows a call once its name is known', () => {
    const session = assembler();
    session.push(toolDelta('a1', 0, 'c1', ''));
    expect(session.publish().items).to.deep.equal([]);
    session.push(toolDelta('a1', 0, 'c1', '{"command":"ls"}', 'Bash'));
    expect(callIds(onlyGroup(session.publish()))).to.deep.equal(['c1']);
  });

  it('drops the preparing tools of an attempt that settles without records', () => {
    const session = assembler();
    session.push([toolDelta('a1', 0, 'c1', '{}', 'Read'), toolDelta('a1', 1, 'c2', '{}', 'Bash')]);
    expect(callIds(onlyGroup(session.publish()))).to.deep.equal(['c1', 'c2']);
    session.push({ type: 'stream/settle', attemptId: 'a1' });
    expect(session.publish().items).to.deep.equal([]);
  });

  it('names a group after its first tool, stable while the run grows', () => {
    const session = assembler();
    session.push(toolDelta('a1', 0, 'c1', '{}', 'Read'));
    const first = onlyGroup(session.publish());
    session.push(toolDelta('a1', 1, 'c2', '{}', 'Read'));
    const second = onlyGroup(session.publish());
    expect(second.id).to.equal('c1');
    expect(second).not.to.equal(first);
    expect(second.tools[0]).to.equal(first.tools[0]);
  });
});

describe('Builder: counts and summary', () => {
  it('counts by category in first-seen order', () => {
    const session = assembler();
    const names = ['Read', 'Bash', 'read_file', 'Edit', 'Bash', 'Read', 'frobnicate'];
    session.push(names.map((name, i) => toolDelta('a1', i, `c${i}`, '{}', name)));
    const group = onlyGroup(session.publish());
    expect(group.counts).to.deep.equal([
      { category: 'read', count: 3 },
      { category: 'bash', count: 2 },
      { category: 'edit', count: 1 },
      { category: 'generic', count: 1 },
    ]);
    expect(group.summary).to.equal('Read 3 files · Ran 2 commands · Edited 1 file · Used 1 tool');
    expect(Object.isFrozen(group.counts)).to.equal(true);
    expect(Object.isFrozen(group.counts[0])).to.equal(true);
  });

  it('reuses counts and summary while the counts are equal', () => {
    const session = assembler();
    session.push(toolDelta('a1', 0, 'c1', '{"description":"a', 'Bash'));
    const first = onlyGroup(session.publish());
    session.push(toolDelta('a1', 0, 'c1', 'b'));
    const second = onlyGroup(session.publish());
    expect(second).not.to.equal(first);
    expect(second.counts).to.equal(first.counts);
    expect(second.summary).to.equal(first.summary);
  });

  it('maps more names and formats the header as the embedder asks', () => {
    const calls: number[] = [];
    const builder = new Builder({
      categories: { deploy_app: 'bash', Read: 'read_image' },
      summary: (counts) => {
        calls.push(counts.length);
        return counts.map(({ category, count }) => `${category}×${count}`).join(', ');
      },
    });
    const session = assembler();
    session.push([
      toolDelta('a1', 0, 'c1', '{}', 'DeployApp'),
      toolDelta('a1', 1, 'c2', '{}', 'Read'),
      toolDelta('a1', 2, 'c3', '{}', 'Bash'),
    ]);
    const nodes = [...session.publish().tools.values()];
    const group = onlyGroup(builder.build(nodes));
    expect(group.summary).to.equal('bash×2, read_image×1');
    expect(builder.categoryOf('deploy-app')).to.equal('bash');
    expect(calls).to.deep.equal([2]);
    expect(() => new Builder({ categories: { x: 'nope' as 'bash' } })).to.throw(RangeError);
  });

  it('records each tool’s category, index for index, as the counts count it', () => {
    const builder = new Builder({ categories: { fetch: 'read' } });
    const session = assembler();
    session.push([
      toolDelta('a1', 0, 'c1', '{}', 'fetch'),
      toolDelta('a1', 1, 'c2', '{}', 'Bash'),
      toolDelta('a1', 2, 'c3', '{}', 'WebFetch'),
    ]);
    const group = onlyGroup(builder.build([...session.publish().tools.values()]));
    expect(group.categories).to.deep.equal(['read', 'bash', 'web']);
    expect(group.summary).to.equal('Read 1 file · Ran 1 command · Made 1 web request');
    expect(Object.isFrozen(group.categories)).to.equal(true);
  });

  it('keeps the categories array while the tools’ categories are the same', () => {
    const session = assembler();
    session.push(toolDelta('a1', 0, 'c1', '{"description":"a', 'Bash'));
    const first = onlyGroup(session.publish());
    session.push(toolDelta('a1', 0, 'c1', 'b'));
    const second = onlyGroup(session.publish());
    expect(second).not.to.equal(first);
    expect(second.categories).to.equal(first.categories);
  });
});

describe('Builder: structure sharing', () => {
  it('keeps a group object while its tools are the same objects', () => {
    const session = assembler();
    session.push([
      toolDelta('a1', 0, 'c1', '{"file_path":"a.ts"}', 'Read'),
      textDelta('a2', 0, 'Reading'),
    ]);
    const first = session.publish();
    const group = groupsOf(first)[0];
    session.push(textDelta('a2', 0, ' more'));
    const second = session.publish();
    expect(second).not.to.equal(first);
    expect(groupsOf(second)[0]).to.equal(group);
  });

  it('keeps the group while an unread field streams', () => {
    const session = assembler();
    session.push(toolDelta('a1', 0, 'c1', '{"file_path":"a.ts","content":"', 'Write'));
    const first = session.publish();
    expect(onlyGroup(first).detail).to.equal('a.ts');
    for (let i = 0; i < 20; i++) {
      session.push(toolDelta('a1', 0, 'c1', 'x'.repeat(1000)));
      expect(session.publish()).to.equal(first);
    }
  });

  it('computes the detail only when the latest tool node changed', () => {
    const session = assembler();
    session.push([
      toolDelta('a1', 0, 'c1', '{"command":"ls","description":"List"}', 'Bash'),
      toolDelta('a1', 1, 'c2', '{"file_path":"a.ts"', 'Read'),
    ]);
    const first = onlyGroup(session.publish());
    expect(first.detail).to.equal('a.ts');
    const before = groupProbe.details;
    session.push(toolCall(1, 'c1', 'Bash', '{"command":"ls","description":"List"}'));
    const second = onlyGroup(session.publish());
    expect(second).not.to.equal(first);
    expect(second.tools[1]).to.equal(first.tools[1]);
    expect(groupProbe.details - before).to.equal(0);
    session.push(toolDelta('a1', 1, 'c2', '}'));
    onlyGroup(session.publish());
    expect(groupProbe.details - before).to.equal(0);
    session.push(toolDelta('a1', 2, 'c3', '{"pattern":"TODO"}', 'Grep'));
    expect(onlyGroup(session.publish()).detail).to.equal('TODO');
    expect(groupProbe.details - before).to.equal(1);
  });
  // Failed before: it kept the last map, in the old order.
  it('a full build of the same tool nodes in another order lists the tools map in that order', () => {
    const session = assembler();
    session.push([
      toolCall(1, 'c1', 'Read', '{"file_path":"a.ts"}'),
      toolCall(2, 'c2', 'Read', '{"file_path":"b.ts"}'),
    ]);
    const [first, second] = [...session.publish().tools.values()] as ToolNode[];
    const builder = new Builder();
    const before = builder.build([first as ToolNode, second as ToolNode]);
    const after = builder.build([second as ToolNode, first as ToolNode]);
    expect([...before.tools.keys()]).to.deep.equal(['c1', 'c2']);
    expect([...after.tools.keys()]).to.deep.equal(['c2', 'c1']);
    expect(after.tools.get('c1')).to.equal(first);
    expect(builder.build([second as ToolNode, first as ToolNode]).tools).to.equal(after.tools);
  });
  // Failed before: a new map with the same entries.
  it('an older page of other nodes alone (a response before the first group) keeps the tools map', () => {
    const session = assembler();
    session.push([toolCall(10, 'c1', 'Read', '{"file_path":"a.ts"}'), toolResult(11, 'c1', 'ok')]);
    const before = session.publish();
    session.prepend([
      {
        type: 'assistant/message',
        seq: 5,
        messageId: 'm',
        attemptId: 'a',
        blocks: [{ type: 'text', text: 'Reading' }],
      },
    ]);
    const after = session.publish();
    expect(shape(after)).to.deep.equal(['assistant:a', 'group:c1']);
    expect(after.items[1]).to.equal(before.items[0]);
    expect(after.tools).to.equal(before.tools);
  });
});

describe('Builder: group detail while fields stream', () => {
  it('follows a description arriving character by character', () => {
    const session = assembler();
    const description = '  Run the  unit\ttests\r\n now ';
    session.push(toolDelta('a1', 0, 'c1', '{"description":"', 'Bash'));
    let tool = onlyGroup(session.publish()).tools[0] as ToolNode;
    let text = '';
    for (const char of description) {
      text += char;
      session.push(toolDelta('a1', 0, 'c1', JSON.stringify(char).slice(1, -1)));
      const group = onlyGroup(session.publish());
      expect(group.detail).to.equal(text.replace(/\s+/g, ' ').trim());
      const next = group.tools[0] as ToolNode;
      if (/\S/.test(char)) expect(next, `after ${JSON.stringify(text)}`).not.to.equal(tool);
      tool = next;
    }
    expect(onlyGroup(session.publish()).detail).to.equal('Run the unit tests now');
  });

  it('stays empty until a late path arrives, and shows it as it closes', () => {
    const session = assembler();
    const events = streamedCall('a1', 0, 'c1', 'Write', [
      '{"content":"',
      'x'.repeat(4096),
      '","file_path":"sr',
      'c/main',
      '.ts"',
      '}',
    ]);
    const details: string[] = [];
    for (const event of events) {
      session.push(event);
      details.push(onlyGroup(session.publish()).detail);
    }
    expect(details).to.deep.equal(['', '', 'sr', 'src/main', 'src/main.ts', 'src/main.ts']);
  });

  it('republishes when a higher-priority field arrives after a lower one', () => {
    const session = assembler();
    session.push(toolDelta('a1', 0, 'c1', '{"command":"npm test",', 'Bash'));
    const first = onlyGroup(session.publish());
    expect(first.detail).to.equal('npm test');
    session.push(toolDelta('a1', 0, 'c1', '"description":"Run'));
    const second = onlyGroup(session.publish());
    expect(second.detail).to.equal('Run');
    expect(second.tools[0]).not.to.equal(first.tools[0]);
    session.push(toolDelta('a1', 0, 'c1', ' tests"}'));
    expect(onlyGroup(session.publish()).detail).to.equal('Run tests');
  });

  it('falls back to the tool name only once the arguments are closed, in every category', () => {
    const names = ['Read', 'view_image', 'Write', 'Edit', 'Grep', 'WebFetch', 'TodoWrite'];
    names.push('AskUserQuestion', 'Bash', 'pwsh', 'python', 'frobnicate');
    for (const name of names) {
      const session = assembler();
      session.push(toolDelta('a1', 0, 'c1', '{"timeout":', name));
      expect(onlyGroup(session.publish()).detail, name).to.equal('');
      session.push(toolDelta('a1', 0, 'c1', '5, "unrelated": ""'));
      expect(onlyGroup(session.publish()).detail, name).to.equal('');
      session.push(toolDelta('a1', 0, 'c1', '}'));
      expect(onlyGroup(session.publish()).detail, name).to.equal(name);
    }
  });

  it('shows the name of a call whose arguments came before its name', () => {
    const session = assembler();
    session.push([
      toolDelta('a1', 0, 'c1', '{"comm'),
      toolDelta('a1', 0, 'c1', 'and":"ls"}', 'Bash'),
    ]);
    expect(onlyGroup(session.publish()).detail).to.equal('Bash');
    session.push(toolCall(1, 'c1', 'Bash', '{"command":"ls"}'));
    expect(onlyGroup(session.publish()).detail).to.equal('ls');
  });

  it('leaves a filled detail and its node alone as the field grows', () => {
    const session = assembler();
    const words = Array.from({ length: 600 }, (_, i) => `w${i % 10}`).join(' ');
    session.push(toolDelta('a1', 0, 'c1', '{"description":"', 'Bash'));
    let tool = onlyGroup(session.publish()).tools[0] as ToolNode;
    const details = new Set<string>();
    const replacedAt: number[] = [];
    for (let sent = 16; sent <= words.length; sent += 16) {
      session.push(toolDelta('a1', 0, 'c1', words.slice(sent - 16, sent)));
      const group = onlyGroup(session.publish());
      if (group.tools[0] !== tool) replacedAt.push(sent);
      tool = group.tools[0] as ToolNode;
      if (sent > 160) details.add(group.detail);
    }
    // The cut is decided once 161 units exist; the node changes until 512 units exist, as the
    // detail's textPrefix(description, 512) answer does, and never after.
    expect([...details]).to.deep.equal([`${words.slice(0, 160)}…`]);
    expect(replacedAt[replacedAt.length - 1]).to.equal(512);
    expect(words.length).to.be.greaterThan(1500);
  });
});
