/**
 * Hostile events at the boundary: exotic objects, deep, cyclic and non-JSON payloads. Each
 * gives an EventError (or a call that shows), never a crash or a lost call.
 */
import { expect } from 'chai';
import { from, lastValueFrom, queueScheduler } from 'rxjs';
import { Assembler } from '../../src/conversation/assembler.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { EventError } from '../../src/events/validate.js';
import { assemble } from '../../src/rx/assemble.js';
import { decodeSSE, encodeSSE } from '../../src/wire/sse.js';
import { decodeTranscript, encodeTranscriptLine } from '../../src/wire/transcript.js';
import { describe, it } from '../harness.js';

const DEEP = 10_000;
/** `{"a":{"a":…1…}}`, `depth` levels: JSON.stringify overflows on it. */
const deepText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

function revoked(): CallfoldEvent {
  const { proxy, revoke } = Proxy.revocable({ type: 'turn/start', seq: 1, turnId: 't' }, {});
  revoke();
  return proxy as unknown as CallfoldEvent;
}

const delta = (callId: string, args: string): CallfoldEvent => ({
  type: 'stream/tool-call-delta',
  attemptId: 'a1',
  block: callId === 'bad' ? 0 : 1,
  callId,
  name: 'Probe',
  args,
});
const call = (
  seq: number,
  callId: string,
  args: string | Record<string, unknown>,
): CallfoldEvent => ({
  type: 'tool/call',
  seq,
  callId,
  name: 'Probe',
  args,
});

function tool(assembler: Assembler, callId: string): ToolNode | undefined {
  return assembler.publish().tools.get(callId);
}

describe('hostile events at the boundary', () => {
  // Failed before: TypeError.
  it('rejects a revoked Proxy with an EventError, alone or in a list', () => {
    const assembler = new Assembler({ now: () => 0 });
    expect(() => assembler.push(revoked())).to.throw(EventError);
    expect(() => assembler.push([revoked()])).to.throw(EventError);
    const list = new Proxy([], {
      get: () => {
        throw new Error('trap');
      },
    }) as unknown as CallfoldEvent[];
    expect(() => assembler.push(list)).to.throw(EventError, /could not be read/);
  });

  // Failed before: the stream failed.
  it('hands a revoked Proxy to assemble’s onInvalid and folds on', async () => {
    const invalid: unknown[] = [];
    const inputs = [revoked(), call(2, 'c1', '{"x":1}')];
    const last = await lastValueFrom(
      from(inputs).pipe(assemble({ scheduler: queueScheduler, onInvalid: (e) => invalid.push(e) })),
    );
    expect(invalid).to.have.length(1);
    expect(invalid[0]).to.be.instanceOf(EventError);
    expect(last.tools.get('c1')?.stage).to.equal('start');
  });

  // Failed before: the call was dropped.
  it('dispatches object args nested 10,000 deep, argsRaw written in full', () => {
    const errors: unknown[] = [];
    const assembler = new Assembler({ now: () => 0, onError: (e) => errors.push(e) });
    assembler.push(call(1, 'deep', JSON.parse(deepText(DEEP)) as Record<string, unknown>));
    const node = tool(assembler, 'deep');
    expect(errors).to.deep.equal([]);
    expect(node?.stage).to.equal('start');
    expect(node?.argsRaw).to.equal(deepText(DEEP));
    expect(node?.args.kind('a')).to.equal('object');
  });

  // Failed before: one dropped, one stuck at preparing.
  it('rejects cyclic and BigInt object args with an EventError on "args", the good call beside them dispatched', () => {
    const cyclic: Record<string, unknown> = { path: 'x' };
    cyclic.self = cyclic;
    for (const bad of [
      cyclic,
      { n: 10n },
      Object.defineProperty({}, 'x', {
        enumerable: true,
        get: () => {
          throw new Error('getter');
        },
      }),
    ]) {
      const errors: unknown[] = [];
      const assembler = new Assembler({ now: () => 0, onError: (e) => errors.push(e) });
      assembler.push([delta('bad', '{"path":"x"}'), delta('good', '{"path":"y"}')]);
      let thrown: unknown;
      try {
        assembler.push(call(1, 'bad', bad));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(EventError);
      expect((thrown as EventError).field).to.equal('args');
      assembler.push(call(2, 'good', '{"path":"y"}'));
      expect(errors).to.deep.equal([]);
      // The rejected call still shows, as the model wrote it; the good one is dispatched.
      expect(tool(assembler, 'bad')?.stage).to.equal('preparing');
      expect(tool(assembler, 'good')?.stage).to.equal('start');
    }
  });

  // Failed before: RangeError.
  it('encodes and decodes events nested 10,000 deep over SSE and in transcripts', async () => {
    const deepCall = call(1, 'deep', JSON.parse(deepText(DEEP)) as Record<string, unknown>);
    const deepResult: CallfoldEvent = {
      type: 'tool/result',
      seq: 2,
      callId: 'deep',
      output: JSON.parse(`[${deepText(DEEP)}]`),
    };
    const sse = encodeSSE(deepCall) + encodeSSE(deepResult);
    const decoded: CallfoldEvent[] = [];
    await new Promise<void>((resolve, reject) =>
      decodeSSE(new Response(sse)).subscribe({
        next: (e) => decoded.push(e),
        error: reject,
        complete: resolve,
      }),
    );
    expect(decoded.map((e) => e.type)).to.deep.equal(['tool/call', 'tool/result']);
    const line = encodeTranscriptLine({ at: 5, event: deepResult });
    expect(decodeTranscript(line)).to.have.length(1);
  });

  // Failed before: TypeError.
  it('rejects a result output that cannot be JSON when encoding, with an EventError', () => {
    const result: CallfoldEvent = { type: 'tool/result', seq: 2, callId: 'c', output: { n: 1n } };
    expect(() => encodeSSE(result)).to.throw(EventError, /cannot be written as JSON/);
    expect(() => encodeTranscriptLine({ at: 1, event: result })).to.throw(EventError);
    // The Assembler keeps outputs opaque: the result still shows.
    const assembler = new Assembler({ now: () => 0 });
    assembler.push(result);
    expect(tool(assembler, 'c')?.stage).to.equal('result');
  });
});
