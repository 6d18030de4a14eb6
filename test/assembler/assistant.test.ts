/**
 * The Assistant Definition (DESIGN: Assembler and Definitions): one node per attempt; text
 * and reasoning accumulate; a block end's text replaces its block; the settled
 * `assistant/message` is authoritative; argument-only deltas leave its State untouched.
 */
import { expect } from 'chai';
import type { Definition } from '../../src/assembler/definition.js';
import {
  type AssistantNode,
  assistantDefinition,
} from '../../src/definitions/assistant-definition.js';
import { toolDefinition } from '../../src/definitions/tool-definition.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { describe, it } from '../harness.js';
import {
  assembler,
  assistants,
  blockEnd,
  call,
  message,
  NOW,
  settle,
  textDelta,
  toolDelta,
} from './support/events.js';
import { definitionsOption } from './support/recording.js';

function onlyAssistant(events: readonly CallfoldEvent[]): AssistantNode {
  const { assembler: a } = assembler();
  a.push(events);
  const [node, ...rest] = assistants(a.publish());
  expect(rest).to.deep.equal([]);
  if (!node) throw new Error('no assistant node');
  return node;
}

/** A serialisation of a State that sees into Maps. */
function snapshot(state: unknown): string {
  return JSON.stringify(state, (_, v: unknown) => (v instanceof Map ? [...v] : v));
}

/**
 * Wraps `inner` to check that every argument-only tool delta (its block already known as this
 * call, no new name) returns the State it was given, unchanged. Violations are collected.
 */
function checkingArgumentDeltas<S extends object, N>(
  inner: Definition<S, N>,
  violations: string[],
): Definition<S, N> {
  const known = new WeakMap<object, Map<number, { callId: string; name: string | undefined }>>();
  const identities = (state: S) => {
    let map = known.get(state);
    if (!map) {
      map = new Map();
      known.set(state, map);
    }
    return map;
  };
  const observe = (state: S, event: CallfoldEvent) => {
    if (event.type !== 'stream/tool-call-delta') return;
    const map = identities(state);
    const seen = map.get(event.block);
    map.set(event.block, { callId: event.callId, name: seen?.name ?? event.name });
  };
  return {
    name: inner.name,
    match: (event, emit) => inner.match(event, emit),
    start(match, at, key) {
      const state = inner.start(match, at, key);
      observe(state, match.event);
      return state;
    },
    update(state, match, at) {
      const { event } = match;
      const seen =
        event.type === 'stream/tool-call-delta' ? identities(state).get(event.block) : undefined;
      const argumentOnly =
        event.type === 'stream/tool-call-delta' &&
        seen !== undefined &&
        seen.callId === event.callId &&
        seen.name !== undefined &&
        (event.name === undefined || event.name === seen.name);
      const before = argumentOnly ? snapshot(state) : '';
      const next = inner.update(state, match, at);
      if (argumentOnly) {
        if (next !== state) violations.push('an argument-only delta replaced the State');
        else if (snapshot(next) !== before)
          violations.push('an argument-only delta changed the State');
      }
      const map = known.get(state);
      if (map && next !== state) known.set(next, map);
      observe(next, event);
      return next;
    },
    build: (state, previous) => inner.build(state, previous),
  };
}

/** `inner`, rebuilding its State (a deep copy) on every tool delta: what the rule forbids. */
function rebuildingOnDeltas<S, N>(inner: Definition<S, N>): Definition<S, N> {
  return {
    ...inner,
    match: (event, emit) => inner.match(event, emit),
    update(state, match, at) {
      const next = inner.update(state, match, at);
      return match.event.type === 'stream/tool-call-delta' ? structuredClone(next) : next;
    },
  };
}

const argumentDeltas: readonly CallfoldEvent[] = [
  textDelta('a1', 0, 'Writing.'),
  toolDelta('a1', 1, 'c1', '', 'write'),
  toolDelta('a1', 1, 'c1', '{"file_path":"a",'),
  toolDelta('a1', 1, 'c1', '"content":"'),
  toolDelta('a1', 1, 'c1', 'xyz', 'write'),
  toolDelta('a1', 2, 'c2', '{"command":', 'bash'),
  toolDelta('a1', 1, 'c1', 'more'),
  toolDelta('a1', 2, 'c2', '"ls"}'),
];

describe('assistant: argument-only deltas leave its State untouched', () => {
  it('its State object and contents stay the same for every argument-only delta', () => {
    const violations: string[] = [];
    const { assembler: a, errors } = assembler({
      definitions: definitionsOption(
        checkingArgumentDeltas(assistantDefinition, violations),
        toolDefinition,
      ),
    });
    for (const event of argumentDeltas) {
      a.push(event);
      a.publish();
    }
    a.reconnect();
    a.push(argumentDeltas);
    a.publish();
    expect(errors).to.deep.equal([]);
    expect(violations).to.deep.equal([]);
  });

  it('(negative control) a Definition that rebuilds its State on tool deltas is caught by the same check', () => {
    const violations: string[] = [];
    const { assembler: a } = assembler({
      definitions: definitionsOption(
        checkingArgumentDeltas(rebuildingOnDeltas(assistantDefinition), violations),
        toolDefinition,
      ),
    });
    a.push(argumentDeltas);
    expect(violations.length).to.be.greaterThan(0);
  });

  it('its node is the same object across publications when only argument deltas arrive', () => {
    const { assembler: a } = assembler();
    a.push(argumentDeltas.slice(0, 2));
    const node = assistants(a.publish())[0];
    expect(node?.blocks).to.deep.equal([
      { type: 'text', text: 'Writing.' },
      { type: 'tool-use', callId: 'c1', name: 'write' },
    ]);
    for (const event of argumentDeltas.slice(2, 5)) {
      a.push(event);
      expect(assistants(a.publish())[0], `after ${JSON.stringify(event)}`).to.equal(node);
    }
    a.push(argumentDeltas[5] as CallfoldEvent);
    const withBash = assistants(a.publish())[0];
    expect(withBash, 'a new tool identity is a change').to.not.equal(node);
    for (const event of argumentDeltas.slice(6)) {
      a.push(event);
      expect(assistants(a.publish())[0], `after ${JSON.stringify(event)}`).to.equal(withBash);
    }
  });
});

describe('assistant: text and reasoning', () => {
  it('text and reasoning deltas accumulate per block, blocks joined by blank lines', () => {
    const node = onlyAssistant([
      textDelta('a1', 0, 'Let me ', true),
      textDelta('a1', 0, 'think.', true),
      textDelta('a1', 1, 'First'),
      textDelta('a1', 1, ' part.'),
      textDelta('a1', 2, ''),
      textDelta('a1', 3, 'Second part.', false),
    ]);
    expect(node).to.include({
      kind: 'assistant',
      id: 'a1',
      messageId: null,
      stage: 'streaming',
      text: 'First part.\n\nSecond part.',
      reasoning: 'Let me think.',
      startedAt: NOW,
      firstTokenAt: NOW,
    });
    expect(Object.isFrozen(node.blocks)).to.equal(true);
  });

  it('a reasoning-only response is published; a tools-only response is not', () => {
    expect(onlyAssistant([textDelta('a1', 0, 'hmm', true)]).reasoning).to.equal('hmm');
    const { assembler: a } = assembler();
    a.push([toolDelta('a2', 0, 'c1', '{}', 'read'), textDelta('a2', 1, '')]);
    expect(assistants(a.publish())).to.deep.equal([]);
  });

  it('a block end whose text conflicts with the deltas wins', () => {
    const node = onlyAssistant([
      textDelta('a1', 0, 'Helo wrld'),
      blockEnd('a1', 0, 'Hello world'),
      textDelta('a1', 1, 'Next.'),
    ]);
    expect(node.text).to.equal('Hello world\n\nNext.');
  });

  it('a tool block records the call identity, its name once it arrives', () => {
    const node = onlyAssistant([
      textDelta('a1', 0, 'x'),
      toolDelta('a1', 1, 'c1', '{"a":'),
      toolDelta('a1', 1, 'c1', '1}', 'read'),
    ]);
    expect(node.blocks[1]).to.deep.equal({ type: 'tool-use', callId: 'c1', name: 'read' });
  });
});

describe('assistant: the settled message is authoritative', () => {
  it('assistant/message replaces the streamed blocks; later deltas of the attempt change nothing', () => {
    const { assembler: a } = assembler();
    a.push([textDelta('a1', 0, 'Helo'), textDelta('a1', 1, 'why', true)]);
    a.publish();
    a.push(
      message(1, 'a1', [
        { type: 'reasoning', text: 'Why not.' },
        { type: 'text', text: 'Hello.' },
        { type: 'tool-use', callId: 'c1', name: 'read', argsText: '{}' },
      ]),
    );
    const settled = assistants(a.publish())[0];
    expect(settled).to.include({
      id: 'a1',
      messageId: 'm-a1',
      stage: 'settled',
      text: 'Hello.',
      reasoning: 'Why not.',
    });
    expect(settled?.blocks).to.deep.equal([
      { type: 'reasoning', text: 'Why not.' },
      { type: 'text', text: 'Hello.' },
      { type: 'tool-use', callId: 'c1', name: 'read' },
    ]);
    a.push([textDelta('a1', 0, ' more'), blockEnd('a1', 0, 'Other')]);
    expect(assistants(a.publish())[0]).to.equal(settled);
    a.push([call(2, 'c1', 'read', '{}'), settle('a1')]);
    expect(
      assistants(a.publish())[0],
      'the settle withdraws only what the message replaced',
    ).to.equal(settled);
  });

  it('from history alone the node is settled at once, placed by its seq', () => {
    const { assembler: a } = assembler();
    a.push(message(5, 'a2', [{ type: 'text', text: 'Later.' }]));
    a.prepend([message(2, 'a1', [{ type: 'text', text: 'Earlier.' }])]);
    const nodes = assistants(a.publish());
    expect(nodes.map((n) => [n.id, n.stage, n.text])).to.deep.equal([
      ['a1', 'settled', 'Earlier.'],
      ['a2', 'settled', 'Later.'],
    ]);
  });

  it('an attempt settled without a message disappears; its retry is a new node', () => {
    const { assembler: a } = assembler();
    a.push([textDelta('a1', 0, 'Try one'), settle('a1'), textDelta('a2', 0, 'Try two')]);
    const nodes = assistants(a.publish());
    expect(nodes.map((n) => [n.id, n.text])).to.deep.equal([['a2', 'Try two']]);
  });
});
