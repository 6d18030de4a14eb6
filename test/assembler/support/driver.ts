/**
 * Runs a host's operations against an Assembler, reads published arguments the way rows do,
 * checks every publication's shape, and projects a Conversation onto what must converge.
 */
import { expect } from 'chai';
import { PartialArguments } from '../../../src/arguments/partial-arguments.js';
import type { Assembler } from '../../../src/conversation/assembler.js';
import type { Conversation } from '../../../src/conversation/conversation.js';
import type { ToolNode } from '../../../src/definitions/tool-definition.js';
import { argumentKeys, type Op, prng } from './sessions.js';

/** Reads some arguments of some tools, as rows and group headers would; seeded. */
export function readSome(conversation: Conversation, seed: number): void {
  const r = prng(seed);
  for (const tool of conversation.tools.values()) {
    if (!r.chance(0.5)) continue;
    const args = tool.args;
    const key = r.pick(argumentKeys);
    switch (r.int(0, 8)) {
      case 0:
        args.text(key);
        break;
      case 1:
        args.stringLength(key, { step: r.pick([1, 16, 1024]) });
        break;
      case 2:
        args.textPrefix(key, r.int(0, 40));
        break;
      case 3:
        args.has(key);
        break;
      case 4:
        args.kind(key);
        break;
      case 5:
        args.complete(key);
        break;
      case 6:
        args.complete();
        break;
      case 7:
        args.closed();
        break;
      default:
        args.value(key);
    }
  }
}

/**
 * Checks what every publication must satisfy, whatever came before: groups are maximal
 * non-empty runs of tools, the tools map holds exactly the grouped tools, nodes are frozen,
 * and a tool's stage agrees with its call and result.
 */
export function expectWellFormed(conversation: Conversation): void {
  expect(Object.isFrozen(conversation), 'conversation frozen').to.equal(true);
  expect(Object.isFrozen(conversation.items), 'items frozen').to.equal(true);
  const grouped: ToolNode[] = [];
  let previous: string | undefined;
  for (const item of conversation.items) {
    expect(Object.isFrozen(item), `${item.kind} frozen`).to.equal(true);
    if (item.kind === 'group') {
      expect(previous, 'two groups in a row').to.not.equal('group');
      expect(item.tools.length, 'an empty group').to.be.greaterThan(0);
      expect(item.id).to.equal((item.tools[0] as ToolNode).callId);
      grouped.push(...item.tools);
    } else {
      expect(item.text.length + item.reasoning.length, 'an empty assistant').to.be.greaterThan(0);
    }
    previous = item.kind;
  }
  expect(conversation.tools.size, 'tools map size').to.equal(grouped.length);
  for (const tool of grouped) {
    expect(conversation.tools.get(tool.callId), `tools map entry ${tool.callId}`).to.equal(tool);
    expect(Object.isFrozen(tool), 'tool frozen').to.equal(true);
    const stage = tool.result ? 'result' : tool.call ? 'start' : 'preparing';
    expect(tool.stage, `stage of ${tool.callId}`).to.equal(stage);
    if (tool.call) {
      expect(tool.call.name).to.equal(tool.name);
      expect(tool.call.argsRaw).to.equal(tool.argsRaw);
    }
    if (tool.name === '') {
      expect(tool.stage, 'a nameless tool is an unpaired result').to.equal('result');
      expect(tool.args).to.equal(PartialArguments.empty);
    }
  }
}

/** Applies `ops` in order, checking each publication; returns the last publication. */
export function run(assembler: Assembler, ops: readonly Op[]): Conversation {
  for (const op of ops) {
    switch (op.kind) {
      case 'push':
        assembler.push(op.events);
        break;
      case 'prepend':
        assembler.prepend(op.events);
        break;
      case 'reconnect':
        assembler.reconnect();
        break;
      case 'publish': {
        const conversation = assembler.publish();
        expectWellFormed(conversation);
        expect(assembler.publish(), 'a publication without news is the same').to.equal(
          conversation,
        );
        readSome(conversation, op.reads);
        break;
      }
      default:
        op satisfies never;
    }
  }
  const last = assembler.publish();
  expectWellFormed(last);
  return last;
}

/** What a tool must converge to: identity, stage, final text, result and its arguments' values. */
function projectTool(tool: ToolNode): unknown[] {
  let values: unknown;
  if (tool.argsRaw === null) {
    values = tool.args === PartialArguments.empty ? 'empty view' : 'a view without text';
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(tool.argsRaw);
    } catch {
      parsed = undefined;
    }
    values =
      parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
        ? Object.keys(parsed).map((key) => [key, tool.args.value(key)])
        : 'not an object';
  }
  return [
    tool.callId,
    tool.name,
    tool.stage,
    tool.argsRaw,
    tool.call && [tool.call.name, tool.call.argsRaw],
    tool.result && [tool.result.output, tool.result.isError],
    values,
  ];
}

/**
 * The canonical projection compared by the convergence properties: the items in order
 * (assistant: kind, id, text, reasoning; group: kind and its tools) and the tools map as
 * entries sorted by callId.
 */
export function project(conversation: Conversation): unknown {
  return {
    items: conversation.items.map((item) =>
      item.kind === 'assistant'
        ? [item.kind, item.id, item.text, item.reasoning]
        : [item.kind, item.tools.map(projectTool)],
    ),
    tools: [...conversation.tools.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([callId, tool]) => [callId, projectTool(tool)]),
  };
}
