import { expect } from 'chai';
import { lastValueFrom, toArray } from 'rxjs';
import { isLife, newLife, parseResumeId } from '../../src/server/session-life.js';
import { decodeSSE } from '../../src/wire/sse.js';
import { describe, it } from '../harness.js';

describe('session lives', () => {
  it('a new life is 12 of [a-z0-9], different each time', () => {
    const lives = new Set(Array.from({ length: 1000 }, () => newLife()));
    expect(lives.size).to.equal(1000);
    for (const life of lives) expect(isLife(life) && life.length === 12, life).to.equal(true);
  });

  it('Last-Event-ID: <seq>-<life> gives both; a bare seq gives the seq alone; anything else nothing', () => {
    expect(parseResumeId('17-k3j9x0p2aa1b')).to.deep.equal({ seq: 17, life: 'k3j9x0p2aa1b' });
    expect(parseResumeId(' 17-abc ')).to.deep.equal({ seq: 17, life: 'abc' });
    expect(parseResumeId('17')).to.deep.equal({ seq: 17 });
    for (const bad of [null, undefined, '', '  ', '17-', '-abc', '17-ABC', '17-a-b', 'x']) {
      expect(parseResumeId(bad), String(bad)).to.equal(undefined);
    }
  });

  it('decodeSSE reports each retry: line (what followSession waits before reconnecting)', async () => {
    const retries: number[] = [];
    const events = await lastValueFrom(
      decodeSSE(
        new ReadableStream<Uint8Array>({
          start(controller) {
            const utf8 = new TextEncoder();
            controller.enqueue(
              utf8.encode('retry: 700\n\ndata: {"type":"stream/settle","attemptId":"a"}\n\n'),
            );
            controller.enqueue(utf8.encode('retry: x\n\nretry: 250\n\n'));
            controller.close();
          },
        }),
        { onRetry: (ms) => retries.push(ms) },
      ).pipe(toArray()),
    );
    expect(events).to.have.length(1);
    expect(retries).to.deep.equal([700, 250]);
  });
});
