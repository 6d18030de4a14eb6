/**
 * ToolMap (the Conversation's `tools`) against a plain list of entries, over random
 * sequences of what the Builder does to it: `of`, `with` (entries replaced in place),
 * `appended` and `prepended` (entries dropped at an end, new ones added there). Every map
 * made must read as its model, and keep reading so after later maps share its storage.
 */
import { expect } from 'chai';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import { ToolMap } from '../../src/groups/tool-map.js';
import { prng } from '../assembler/support/sessions.js';
import { describe, it } from '../harness.js';

type Model = readonly (readonly [string, ToolNode])[];

let version = 0;
/** A stand-in node: ToolMap reads only `callId`; `version` tells two nodes of one call apart. */
const node = (callId: string) => ({ callId, version: version++ }) as unknown as ToolNode;

/** A message naming the first way `map` reads differently from `model`, or null. */
function differs(map: ToolMap, model: Model): string | null {
  if (map.size !== model.length) return `size ${map.size}, model ${model.length}`;
  const entries = [...map];
  for (let i = 0; i < model.length; i++) {
    const [callId, tool] = model[i] as readonly [string, ToolNode];
    const entry = entries[i];
    if (entry?.[0] !== callId || entry[1] !== tool)
      return `entry ${i}: ${entry?.[0]}, model ${callId}`;
    if (map.get(callId) !== tool) return `get(${callId}) is not the model's node`;
    if (!map.has(callId)) return `has(${callId}) is false`;
  }
  if (map.get('absent') !== undefined || map.has('absent')) return 'an absent callId is found';
  const keys = [...map.keys()];
  const values = [...map.values()];
  const visited: string[] = [];
  map.forEach((_, callId) => {
    visited.push(callId);
  });
  for (let i = 0; i < model.length; i++) {
    const [callId, tool] = model[i] as readonly [string, ToolNode];
    if (keys[i] !== callId || visited[i] !== callId) return `keys/forEach ${i}`;
    if (values[i] !== tool) return `values ${i}`;
  }
  return null;
}

describe('ToolMap reads as its entries, whatever the Builder did to it', () => {
  it('over 150 random sequences of 40 operations (replacements in place, entries dropped and added at either end), every map made reads as its model, before and after later maps share its storage', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const r = prng(seed);
      let ids = 0;
      const fresh = (n: number) => Array.from({ length: n }, () => node(`t${ids++}`));
      let model: Model = fresh(r.int(0, 40)).map((t) => [t.callId, t] as const);
      let map = ToolMap.of(model.map(([, t]) => t));
      const made: [ToolMap, Model][] = [[map, model]];
      for (let op = 0; op < 40; op++) {
        const roll = r.next();
        if (roll < 0.45 && model.length > 0) {
          // Replaced in place: mostly near the end (a call streaming), sometimes anywhere.
          const replaced: ToolNode[] = [];
          const next = [...model];
          for (let k = r.int(1, 4); k > 0; k--) {
            const at = r.chance(0.6)
              ? Math.max(0, model.length - 1 - r.int(0, 8))
              : r.int(0, model.length - 1);
            const tool = node((next[at] as readonly [string, ToolNode])[0]);
            next[at] = [tool.callId, tool];
            replaced.push(tool);
          }
          // `with` takes each callId once, the last given winning, as the Builder gives them.
          map = map.with(replaced);
          model = next;
        } else if (roll < 0.8) {
          const removed = r.int(0, Math.min(model.length, 20));
          const kept = model.slice(0, model.length - removed);
          // The end listed again: some of the removed callIds come back (moved), some new.
          const back = model
            .slice(kept.length)
            .filter(() => r.chance(0.5))
            .map(([id]) => node(id));
          const added = r.shuffle([...back, ...fresh(r.int(0, 12))]);
          const next = map.appended(removed, added);
          if (next === undefined) throw new Error(`seed ${seed}: appended refused fresh callIds`);
          map = next;
          model = [...kept, ...added.map((t) => [t.callId, t] as const)];
        } else {
          const removed = r.int(0, Math.min(model.length, 10));
          const kept = model.slice(removed);
          const added = fresh(r.int(0, 12));
          const next = map.prepended(removed, added);
          if (next === undefined) throw new Error(`seed ${seed}: prepended refused fresh callIds`);
          map = next;
          model = [...added.map((t) => [t.callId, t] as const), ...kept];
        }
        const message = differs(map, model);
        if (message) expect.fail(`seed ${seed}, operation ${op}: ${message}`);
        made.push([map, model]);
      }
      for (const [i, [old, oldModel]] of made.entries()) {
        const message = differs(old, oldModel);
        if (message) expect.fail(`seed ${seed}: map ${i} changed after later ones: ${message}`);
      }
    }
  });

  it('refuses (undefined) an added callId that is among the entries kept', () => {
    const [a, b] = [node('a'), node('b')];
    const map = ToolMap.of([a as ToolNode, b as ToolNode]);
    expect(map.appended(0, [node('a')])).to.equal(undefined);
    expect(map.prepended(0, [node('b')])).to.equal(undefined);
    expect(map.appended(1, [node('b')])?.get('b')).to.not.equal(b);
  });
});
