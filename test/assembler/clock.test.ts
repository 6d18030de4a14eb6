import { expect } from 'chai';
import { Assembler } from '../../src/conversation/assembler.js';
import { describe, it } from '../harness.js';

const delta = (args: string, name?: string) => ({
  type: 'stream/tool-call-delta' as const,
  attemptId: 'a1',
  block: 0,
  callId: 'c1',
  args,
  ...(name === undefined ? {} : { name }),
});

describe('the Assembler clock', () => {
  it('is read once per task: events pushed in one synchronous burst share its time', async () => {
    let reads = 0;
    const assembler = new Assembler({ now: () => ++reads * 1000 });
    assembler.push(delta('', 'write'));
    assembler.push(delta('{"file_path":'));
    assembler.push(delta('"a.ts"'));
    expect(reads).to.equal(1);
    const first = assembler.publish().tools.get('c1');
    expect(first?.startedAt).to.equal(1000);
    expect(first?.firstTokenAt).to.equal(1000);

    await Promise.resolve();
    assembler.push(delta('}'));
    expect(reads).to.equal(2);
  });

  it('stamps a later task with a later reading', async () => {
    let reads = 0;
    const assembler = new Assembler({ now: () => ++reads * 1000 });
    assembler.push(delta('', 'write'));
    await Promise.resolve();
    assembler.push(delta('{"a":1}'));
    const node = assembler.publish().tools.get('c1');
    expect(node?.startedAt).to.equal(1000);
    expect(node?.firstTokenAt).to.equal(2000);
  });
});
