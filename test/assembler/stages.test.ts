/**
 * One tool node per callId through its stages (DESIGN: Tool Definition): live
 * preparing → start → result, history start → result, and a result whose call arrives in an
 * older page.
 */
import { expect } from 'chai';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { describe, it } from '../harness.js';
import {
  assembler,
  blockEnd,
  call,
  message,
  NOW,
  outline,
  result,
  settle,
  textDelta,
  toolDelta,
  toolOf,
} from './support/events.js';

const args = '{"file_path":"src/a.ts","content":"hello"}';

describe('tool stages, live: preparing → start → result', () => {
  it('a named delta opens a preparing node with a streaming reader; tool/call moves it to start; tool/result to result', () => {
    const { assembler: a, errors } = assembler();
    a.push(toolDelta('a1', 0, 'c1', '{"file_path":"src/', 'write'));
    const preparing = toolOf(a.publish(), 'c1');
    expect(preparing).to.include({
      kind: 'tool',
      callId: 'c1',
      name: 'write',
      stage: 'preparing',
      argsRaw: null,
      call: null,
      result: null,
      startedAt: NOW,
      firstTokenAt: NOW,
    });
    expect(preparing.args.closed()).to.equal(false);
    expect(preparing.args.has('file_path')).to.equal(true);

    a.push([toolDelta('a1', 0, 'c1', 'a.ts","content":"hel'), toolDelta('a1', 0, 'c1', 'lo"}')]);
    a.push([message(1, 'a1', [{ type: 'tool-use', callId: 'c1', name: 'write', argsText: args }])]);
    a.push(call(2, 'c1', 'write', args));
    const started = toolOf(a.publish(), 'c1');
    expect(started.stage).to.equal('start');
    expect(started.argsRaw).to.equal(args);
    expect(started.call).to.deep.equal({ name: 'write', argsRaw: args });
    expect(started.args, 'the fragments matched: the same reader, sealed').to.equal(preparing.args);
    expect(started.args.closed()).to.equal(true);
    expect(started.args.text('content')).to.equal('hello');

    a.push(settle('a1'));
    const settled = toolOf(a.publish(), 'c1');
    expect(settled, 'a dispatched call keeps its node through the settle').to.equal(started);

    a.push(result(3, 'c1', { ok: true }));
    const answered = toolOf(a.publish(), 'c1');
    expect(answered.stage).to.equal('result');
    expect(answered.result).to.deep.equal({ output: { ok: true }, isError: false });
    expect(answered.call).to.equal(started.call);
    expect(answered.args, 'the result keeps the reader of the call').to.equal(preparing.args);
    expect(errors).to.deep.equal([]);
  });

  it('an unnamed first delta opens the Context but publishes nothing until a name is known', () => {
    const { assembler: a } = assembler();
    a.push(toolDelta('a1', 0, 'c1', ''));
    expect(a.publish().tools.has('c1')).to.equal(false);
    a.push(toolDelta('a1', 0, 'c1', '{"command":"ls"}', 'bash'));
    const node = toolOf(a.publish(), 'c1');
    expect(node.stage).to.equal('preparing');
    expect(node.name).to.equal('bash');
    expect(node.args.text('command')).to.equal('ls');
  });

  it('a block end is not a dispatch: the node stays preparing with the final text', () => {
    const { assembler: a } = assembler();
    a.push([toolDelta('a1', 0, 'c1', args, 'write'), blockEnd('a1', 0, args, 'c1')]);
    const node = toolOf(a.publish(), 'c1');
    expect(node.stage).to.equal('preparing');
    expect(node.call).to.equal(null);
    expect(node.argsRaw).to.equal(args);
    expect(node.args.closed()).to.equal(true);
  });

  it('an error result is a result with isError true', () => {
    const { assembler: a } = assembler();
    a.push([call(1, 'c1', 'bash', '{}'), result(2, 'c1', 'exit 1', true)]);
    expect(toolOf(a.publish(), 'c1').result).to.deep.equal({ output: 'exit 1', isError: true });
  });

  it('parallel calls stream interleaved, each into its own node, in the order they opened', () => {
    const { assembler: a } = assembler();
    a.push([
      textDelta('a1', 0, 'Reading both.'),
      toolDelta('a1', 1, 'c1', '{"file_path":', 'read'),
      toolDelta('a1', 2, 'c2', '{"file_path":', 'read'),
      toolDelta('a1', 2, 'c2', '"b"}'),
      toolDelta('a1', 1, 'c1', '"a"}'),
    ]);
    const conversation = a.publish();
    expect(outline(conversation)).to.deep.equal(['assistant:a1', 'group:c1,c2']);
    expect(toolOf(conversation, 'c1').args.text('file_path')).to.equal('a');
    expect(toolOf(conversation, 'c2').args.text('file_path')).to.equal('b');
  });
});

describe('tool stages, history: start → result', () => {
  it('a durable tool/call opens the node at start, with a sealed reader over its text', () => {
    const { assembler: a } = assembler();
    a.push(call(1, 'c1', 'write', args));
    const node = toolOf(a.publish(), 'c1');
    expect(node.stage).to.equal('start');
    expect(node.argsRaw).to.equal(args);
    expect(node.args.closed()).to.equal(true);
    expect(node.args.value('file_path')).to.equal('src/a.ts');
    expect(node.firstTokenAt, 'no token streamed').to.equal(undefined);

    a.push(result(2, 'c1', 'written'));
    const answered = toolOf(a.publish(), 'c1');
    expect(answered.stage).to.equal('result');
    expect(answered.args).to.equal(node.args);
    expect(answered.call).to.equal(node.call);
  });

  it('object arguments are read through fromObject and argsRaw is their JSON text', () => {
    const payload = { file_path: 'a', nested: { deep: [1, 2] } };
    const { assembler: a } = assembler();
    a.push(call(1, 'c1', 'write', payload));
    const node = toolOf(a.publish(), 'c1');
    expect(node.argsRaw).to.equal(JSON.stringify(payload));
    expect(node.call?.argsRaw).to.equal(JSON.stringify(payload));
    expect(node.args.value('nested'), 'borrowed, not copied').to.equal(payload.nested);
    expect(node.args.closed()).to.equal(true);
  });

  it('the durable time stamps the node when the event carries one', () => {
    const { assembler: a } = assembler();
    a.push({ ...call(1, 'c1', 'bash', '{}'), at: 42 });
    expect(toolOf(a.publish(), 'c1').startedAt).to.equal(42);
  });
});

describe('tool stages, paging: a result whose call is in an older page', () => {
  it('a result-only page gives an unpaired result node; prepending the call page pairs it', () => {
    const { assembler: a, errors } = assembler();
    a.prepend([result(5, 'c1', 'done')]);
    const unpaired = toolOf(a.publish(), 'c1');
    expect(unpaired).to.include({ stage: 'result', name: '', argsRaw: null, call: null });
    expect(unpaired.args).to.equal(PartialArguments.empty);
    expect(unpaired.result).to.deep.equal({ output: 'done', isError: false });

    a.prepend([
      message(3, 'a1', [{ type: 'text', text: 'Writing.' }]),
      call(4, 'c1', 'write', args),
    ]);
    const paired = a.publish();
    const node = toolOf(paired, 'c1');
    expect(node).to.include({ stage: 'result', name: 'write', argsRaw: args });
    expect(node.call).to.deep.equal({ name: 'write', argsRaw: args });
    expect(node.result, 'the result record is kept').to.equal(unpaired.result);
    expect(node.args.value('content')).to.equal('hello');
    expect(outline(paired), 'the call opens the node: after the message').to.deep.equal([
      'assistant:a1',
      'group:c1',
    ]);

    const { assembler: once } = assembler();
    once.push([
      message(3, 'a1', [{ type: 'text', text: 'Writing.' }]),
      call(4, 'c1', 'write', args),
      result(5, 'c1', 'done'),
    ]);
    const direct = toolOf(once.publish(), 'c1');
    expect([node.stage, node.name, node.argsRaw, node.call, node.result]).to.deep.equal([
      direct.stage,
      direct.name,
      direct.argsRaw,
      direct.call,
      direct.result,
    ]);
    expect(errors).to.deep.equal([]);
  });

  it('a result whose call never loads stays unpaired: no synthetic call, the shared empty view', () => {
    const { assembler: a } = assembler();
    a.push(result(9, 'gone', { lines: 3 }, false));
    const node = toolOf(a.publish(), 'gone');
    expect(node.args).to.equal(PartialArguments.empty);
    expect(node.args.has('file_path')).to.equal(false);
    expect(node.args.closed()).to.equal(true);
  });

  it('a page that ends in the middle of an attempt: the message in an older page still comes first', () => {
    const { assembler: a } = assembler();
    a.push([call(4, 'c1', 'read', '{}'), call(5, 'c2', 'read', '{}'), result(6, 'c1', 'x')]);
    a.prepend([message(3, 'a1', [{ type: 'text', text: 'Two reads.' }])]);
    expect(outline(a.publish())).to.deep.equal(['assistant:a1', 'group:c1,c2']);
  });
});
