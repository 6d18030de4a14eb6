/**
 * The real-world call shapes (docs/guide/events.md, "Events": the optional fields) through the Tool
 * Definition: free-form input, provider-executed calls, provider ids, cut calls and approvals,
 * live and from history alike.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { encodeInput } from '../../src/definitions/free-form-input.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import type {
  CallfoldEvent,
  SessionEvent,
  ToolCallDeltaEvent,
  ToolUseBlock,
} from '../../src/events/types.js';
import { isDurableEvent } from '../../src/events/types.js';
import { cuts, split } from '../events/arbitraries.js';
import { describe, it } from '../harness.js';
import {
  assembler,
  blockEnd,
  call,
  message,
  result,
  settle,
  toolDelta,
  toolOf,
} from './support/events.js';

function textDelta(callId: string, args: string, name?: string): ToolCallDeltaEvent {
  return { ...toolDelta('a1', 0, callId, args, name), input: 'text' };
}

/** What a node shows, without the reader's identity: equal for equal durable events. */
function shown(node: ToolNode) {
  const { args, startedAt: _s, firstTokenAt: _f, ...rest } = node;
  return { ...rest, closed: args.closed(), fields: args.closed() ? fieldsOf(node) : null };
}

function fieldsOf(node: ToolNode): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of ['input', 'file_path', 'content', 'query', 'command']) {
    if (node.args.has(key))
      fields[key] = node.args.kind(key) === 'string' ? node.args.text(key) : node.args.value(key);
  }
  return fields;
}

/** Folds `events`, returns the tool nodes as shown, by callId. */
function fold(events: readonly CallfoldEvent[]): Map<string, ReturnType<typeof shown>> {
  const { assembler: a, errors } = assembler();
  a.push(events);
  expect(errors).to.deep.equal([]);
  return new Map([...a.publish().tools].map(([id, node]) => [id, shown(node)]));
}

const patch =
  '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const a = "x";\n+const a = \'y\\n\';\n*** End Patch';

describe('free-form input (input: "text")', () => {
  it('a preparing node reads the streamed raw text as the string field "input"', () => {
    const { assembler: a } = assembler();
    a.push(textDelta('c1', '*** Begin Patch\n*** Update File: src/', 'apply_patch'));
    const node = toolOf(a.publish(), 'c1');
    expect(node).to.include({ stage: 'preparing', input: 'text', argsRaw: null });
    expect(node.args.kind('input')).to.equal('string');
    expect(node.args.text('input')).to.equal('*** Begin Patch\n*** Update File: src/');
    expect(node.args.complete('input')).to.equal(false);
    a.push(textDelta('c1', 'a.ts\n@@'));
    const grown = toolOf(a.publish(), 'c1');
    expect(grown.args.stringLength('input')).to.equal(
      '*** Begin Patch\n*** Update File: src/a.ts\n@@'.length,
    );
  });

  it('block end and tool/call seal the same reader; argsRaw and call.argsRaw are the raw text', () => {
    const { assembler: a } = assembler();
    const pieces = [patch.slice(0, 7), patch.slice(7, 40), patch.slice(40)];
    a.push(textDelta('c1', pieces[0] as string, 'apply_patch'));
    const preparing = toolOf(a.publish(), 'c1');
    preparing.args.text('input');
    a.push([textDelta('c1', pieces[1] as string), textDelta('c1', pieces[2] as string)]);
    a.push({ ...blockEnd('a1', 0, patch, 'c1'), input: 'text' });
    const ended = toolOf(a.publish(), 'c1');
    expect(ended.args, 'same reader, sealed').to.equal(preparing.args);
    expect(ended.args.closed()).to.equal(true);
    expect(ended.argsRaw).to.equal(patch);
    a.push({ ...call(1, 'c1', 'apply_patch', patch), input: 'text' });
    const started = toolOf(a.publish(), 'c1');
    expect(started).to.include({ stage: 'start', input: 'text', argsRaw: patch });
    expect(started.call).to.deep.equal({ name: 'apply_patch', argsRaw: patch });
    expect(started.args).to.equal(preparing.args);
    expect(started.args.text('input')).to.equal(patch);
  });

  it('from history, the tool/call alone gives the same node', () => {
    const live = fold([
      textDelta('c1', patch.slice(0, 20), 'apply_patch'),
      textDelta('c1', patch.slice(20)),
      { ...call(1, 'c1', 'apply_patch', patch), input: 'text' },
      settle('a1'),
    ]);
    const history = fold([{ ...call(1, 'c1', 'apply_patch', patch), input: 'text' }]);
    expect(live).to.deep.equal(history);
    expect(history.get('c1')?.fields).to.deep.equal({ input: patch });
  });

  it('for any text cut into any fragments, "input" reads the text so far, and sealing keeps the reader', () => {
    const unit = fc.constantFrom(
      'a',
      '"',
      '\\',
      '\n',
      '\u0000',
      '\u001f',
      '\ud83d',
      '\ude00',
      '😀',
      'é',
      ' ',
    );
    fc.assert(
      fc.property(
        fc
          .string({ unit, maxLength: 40 })
          .chain((text) => fc.tuple(fc.constant(text), cuts(text.length))),
        ([text, points]) => {
          const { assembler: a } = assembler();
          const pieces = split(text, points);
          let sofar = '';
          let first: ToolNode | undefined;
          pieces.forEach((piece, i) => {
            a.push(textDelta('c', piece, i === 0 ? 'shell_script' : undefined));
            sofar += piece;
            const node = toolOf(a.publish(), 'c');
            first ??= node;
            const seen = node.args.text('input') ?? '';
            // Never half a pair: a trailing high surrogate waits for its partner.
            expect(sofar.startsWith(seen)).to.equal(true);
            expect(sofar.length - seen.length).to.be.at.most(1);
          });
          a.push({ ...call(1, 'c', 'shell_script', text), input: 'text' });
          const node = toolOf(a.publish(), 'c');
          expect(node.args.text('input')).to.equal(text);
          expect(node.args.value('input')).to.equal(text);
          expect(node.args.invalid).to.equal(null);
          if (first) expect(node.args).to.equal(first.args);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the encoding is JSON: it parses back to { input: text }', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 30 }), (text) => {
        expect(JSON.parse(encodeInput(text))).to.deep.equal({ input: text });
      }),
    );
    expect(JSON.parse(encodeInput('\ud800 lone'))).to.deep.equal({ input: '\ud800 lone' });
  });

  it('a block end that disagrees with the fragments gives a fresh sealed view of the block end text', () => {
    const { assembler: a } = assembler();
    a.push([
      textDelta('c1', 'abc', 'apply_patch'),
      { ...blockEnd('a1', 0, 'xyz', 'c1'), input: 'text' },
    ]);
    const node = toolOf(a.publish(), 'c1');
    expect(node.args.text('input')).to.equal('xyz');
    expect(node.argsRaw).to.equal('xyz');
  });
});

describe('provider-executed calls (executor: "provider") and provider ids', () => {
  it('the preparing node already says the provider runs it; call and result keep it', () => {
    const { assembler: a } = assembler();
    a.push({ ...toolDelta('a1', 0, 'c1', '{"query":"lit', 'web_search'), executor: 'provider' });
    expect(toolOf(a.publish(), 'c1')).to.include({ stage: 'preparing', executor: 'provider' });
    a.push({ ...call(1, 'c1', 'web_search', { query: 'lit' }), executor: 'provider' });
    a.push({ ...result(2, 'c1', [{ url: 'https://lit.dev' }]), executor: 'provider' });
    const node = toolOf(a.publish(), 'c1');
    expect(node).to.include({ stage: 'result', executor: 'provider' });
    expect(node.result?.output).to.deep.equal([{ url: 'https://lit.dev' }]);
  });

  it('a client call has no executor field', () => {
    const node = fold([call(1, 'c1', 'Read', '{"file_path":"a"}')]).get('c1');
    expect(node).to.not.have.property('executor');
    expect(node?.stage).to.equal('start');
  });

  it('providerCallId travels from the delta and the tool/call to the node', () => {
    const { assembler: a } = assembler();
    a.push({ ...toolDelta('a1', 0, 'call_1#2', '{}', 'Read'), providerCallId: 'call_1' });
    expect(toolOf(a.publish(), 'call_1#2').providerCallId).to.equal('call_1');
    const history = fold([{ ...call(1, 'call_1#2', 'Read', '{}'), providerCallId: 'call_1' }]);
    expect(history.get('call_1#2')?.providerCallId).to.equal('call_1');
  });
});

describe('cut calls (stopReason, incomplete)', () => {
  const cutArgs = '{"file_path":"src/big.ts","content":"export const';
  const cutBlock: ToolUseBlock = {
    type: 'tool-use',
    callId: 'c2',
    name: 'Write',
    argsText: cutArgs,
    incomplete: true,
  };
  const done = '{"file_path":"src/a.ts"}';
  const live: CallfoldEvent[] = [
    toolDelta('a1', 0, 'c1', done, 'Read'),
    blockEnd('a1', 0, done, 'c1'),
    toolDelta('a1', 1, 'c2', cutArgs.slice(0, 10), 'Write'),
    toolDelta('a1', 1, 'c2', cutArgs.slice(10)),
    {
      ...message(1, 'a1', [
        { type: 'tool-use', callId: 'c1', name: 'Read', argsText: done },
        cutBlock,
      ]),
      stopReason: 'length',
    },
    call(2, 'c1', 'Read', done),
    settle('a1'),
  ];

  it('the cut call stays preparing, incomplete, with closed args and the stop reason, after the settle', () => {
    const { assembler: a } = assembler();
    a.push(live.slice(0, 4));
    const preparing = toolOf(a.publish(), 'c2');
    expect(preparing.args.closed()).to.equal(false);
    a.push(live.slice(4));
    const conversation = a.publish();
    const node = toolOf(conversation, 'c2');
    expect(node).to.include({
      stage: 'preparing',
      incomplete: true,
      stopReason: 'length',
      argsRaw: cutArgs,
    });
    expect(node.call).to.equal(null);
    expect(node.result).to.equal(null);
    expect(node.args.closed()).to.equal(true);
    expect(node.args.text('file_path')).to.equal('src/big.ts');
    // The text is cut JSON: what completed before the cut reads; the truncation is `invalid`,
    // and how far the call got is the length of argsRaw.
    expect(node.args.complete('content')).to.equal(false);
    expect(node.args.invalid?.message).to.match(/Unexpected end/);
    expect(toolOf(conversation, 'c1')).to.not.have.property('incomplete');
    expect(toolOf(conversation, 'c1').stage).to.equal('start');
  });

  it('folding only the durable events gives the same nodes (live = history)', () => {
    expect(fold(live)).to.deep.equal(fold(live.filter(isDurableEvent)));
    expect(fold(live).get('c2')).to.include({ incomplete: true, stage: 'preparing' });
  });

  it('a message without incomplete blocks opens no tool node (an aborted attempt still withdraws its calls)', () => {
    const nodes = fold([
      toolDelta('a1', 0, 'c1', '{"a', 'Write'),
      message(1, 'a1', [{ type: 'tool-use', callId: 'c1', name: 'Write', argsText: '{"a' }]),
      settle('a1'),
    ]);
    expect([...nodes.keys()]).to.deep.equal([]);
  });

  it('free-form input cut off reads as far as it got', () => {
    const nodes = fold([
      {
        ...message(1, 'a1', [
          {
            type: 'tool-use',
            callId: 'c',
            name: 'apply_patch',
            argsText: '*** Begin',
            input: 'text',
            incomplete: true,
          },
        ]),
        stopReason: 'content-filter',
      },
    ]);
    expect(nodes.get('c')).to.deep.include({
      stage: 'preparing',
      input: 'text',
      incomplete: true,
      stopReason: 'content-filter',
      fields: { input: '*** Begin' },
    });
  });
});

describe('approval (tool/approval-request, tool/approval)', () => {
  const request = {
    type: 'tool/approval-request',
    seq: 2,
    callId: 'c1',
    approvalId: 'ap-1',
  } as const;

  it('a requested call is at start with approval.state "requested"; no approval field otherwise', () => {
    const { assembler: a } = assembler();
    a.push(call(1, 'c1', 'Bash', '{"command":"rm -rf build"}'));
    expect(toolOf(a.publish(), 'c1')).to.not.have.property('approval');
    a.push(request);
    const node = toolOf(a.publish(), 'c1');
    expect(node.stage).to.equal('start');
    expect(node.approval).to.deep.equal({ state: 'requested' });
  });

  it('a denied call stays at start, denied, with the reason', () => {
    const nodes = fold([
      call(1, 'c1', 'Bash', '{"command":"rm -rf build"}'),
      request,
      { type: 'tool/approval', seq: 3, callId: 'c1', approved: false, reason: 'not now' },
    ]);
    expect(nodes.get('c1')).to.deep.include({
      stage: 'start',
      approval: { state: 'denied', reason: 'not now' },
    });
  });

  it('an approved call moves on to its result', () => {
    const nodes = fold([
      call(1, 'c1', 'Bash', '{"command":"ls"}'),
      request,
      { type: 'tool/approval', seq: 3, callId: 'c1', approved: true },
      result(4, 'c1', 'a b'),
    ]);
    expect(nodes.get('c1')).to.deep.include({ stage: 'result', approval: { state: 'approved' } });
  });

  it('publishing again with nothing new keeps the node (approval compared by value after a replay)', () => {
    const { assembler: a } = assembler();
    a.push([toolDelta('a1', 0, 'c1', '{}', 'Bash'), call(1, 'c1', 'Bash', '{}'), request]);
    const before = toolOf(a.publish(), 'c1');
    a.push(settle('a1'));
    expect(toolOf(a.publish(), 'c1')).to.equal(before);
  });

  it('an older history page before the request changes nothing already shown', () => {
    const { assembler: a } = assembler();
    const events: SessionEvent[] = [
      call(1, 'c1', 'Bash', '{}'),
      request,
      { type: 'tool/approval', seq: 3, callId: 'c1', approved: false },
    ];
    a.push(events.slice(1));
    a.prepend(events.slice(0, 1));
    expect(toolOf(a.publish(), 'c1').approval).to.deep.equal({ state: 'denied' });
  });
});
