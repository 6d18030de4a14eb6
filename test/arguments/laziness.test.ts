/**
 * What PartialArguments does not do: scan on append, decode or parse what nobody reads, lose
 * a change to another consumer's read, report changes finer than the reader asked for. Each
 * guard has a negative control that breaks the property on purpose and shows the same check
 * catching it.
 */
import { expect } from 'chai';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { describe, it } from '../harness.js';
import { fragment, openText } from './support/json-text.js';
import { type Work, work } from './support/work.js';

const KiB = 1024;

/** Arguments of a bash call: a short description, then a long command. */
function bashArgs(commandLength: number): string {
  const command = 'echo "step {n}" && ls -la /tmp; '.repeat(Math.ceil(commandLength / 32));
  return JSON.stringify({
    description: 'Run the test suite',
    command: command.slice(0, commandLength),
  });
}

/** Arguments of a write call: a path, huge content with escapes, and many small values. */
function writeArgs(contentLines: number, extraKeys: number) {
  const content = 'const line = "value";\n\tconsole.log(`\\u00e9 {line}`);\n'.repeat(contentLines);
  const extra = Object.fromEntries(
    Array.from({ length: extraKeys }, (_, i) => [`k${i}`, { x: [1, 'a\n', null], y: `s${i}\t` }]),
  );
  const text = JSON.stringify({ file_path: '/repo/src/main.ts', content, ...extra });
  return { text, content, contentRaw: JSON.stringify(content).length - 2 };
}

function expectNoWork(w: Work<unknown>): void {
  expect(w.scanned, 'characters scanned').to.equal(0);
  expect(w.decoded, 'characters decoded').to.equal(0);
  expect(w.parsed, 'values parsed').to.equal(0);
}

describe('append() only retains fragments', () => {
  const text = bashArgs(160_000);
  const fragments = fragment(text, [16]);

  it('10,000 appends scan, decode and parse nothing', () => {
    expect(fragments.length).to.be.at.least(10_000);
    const view = PartialArguments.streaming();
    expectNoWork(
      work(() => {
        for (const f of fragments) view.append(f);
      }),
    );
    const first = work(() => view.text('description'));
    expect(first.result).to.equal('Run the test suite');
    const all = work(() => view.has('missing'));
    expect(all.result).to.equal(false);
    expect(first.scanned + all.scanned, 'each character scanned once').to.equal(text.length);
  });

  it('10,000 appends scan, decode and parse nothing (negative control)', () => {
    const view = PartialArguments.streaming();
    const reading = work(() =>
      fragments.forEach((f) => {
        view.append(f);
        view.has('command');
      }),
    );
    expect(() => expectNoWork(reading)).to.throw(/characters scanned/);
  });
});

describe('values nobody reads are never decoded or parsed', () => {
  const lines = 16_000;
  const extraKeys = 200;
  const { text, contentRaw } = writeArgs(lines, extraKeys);
  const fragments = fragment(text, [16]);
  const publishEvery = 8192;

  /** Streams the write, reading `file_path` at each publication, plus `more` reads. */
  function streamWrite(more: (view: PartialArguments) => void) {
    const view = PartialArguments.streaming();
    let reads = 0;
    const w = work(() => {
      fragments.forEach((f, i) => {
        view.append(f);
        if (i % publishEvery === 0) {
          view.text('file_path');
          reads++;
          more(view);
        }
      });
      view.seal(text).text('file_path');
      reads++;
      more(view);
    });
    return { view, reads, w };
  }

  function expectUnreadUntouched(w: Work<unknown>, reads: number): void {
    expect(w.decoded, 'characters decoded').to.be.below(contentRaw / 100);
    // At most one native parse per read of file_path: eagerly parsing the 200 unread values
    // (or the content) would exceed it.
    expect(w.parsed, 'values parsed').to.be.at.most(reads);
  }

  it('reading file_path of a write leaves its huge content and other values untouched', () => {
    expect(contentRaw).to.be.above(800 * KiB);
    const { view, reads, w } = streamWrite(() => {});
    expect(reads).to.be.below(extraKeys / 4);
    expect(view.text('file_path')).to.equal('/repo/src/main.ts');
    expectUnreadUntouched(w, reads);
  });

  it('reading content decodes it (negative control)', () => {
    const { reads, w } = streamWrite((view) => view.text('content'));
    expect(() => expectUnreadUntouched(w, reads)).to.throw(/characters decoded/);
  });

  it('reading every other value parses them (negative control)', () => {
    const { reads, w } = streamWrite((view) => {
      for (let i = 0; i < extraKeys; i++) view.value(`k${i}`);
    });
    expect(() => expectUnreadUntouched(w, reads)).to.throw(/values parsed/);
  });
});

describe('reads index only what is new', () => {
  const text = bashArgs(24_000);
  const fragments = fragment(text, [16]);

  /** Total characters scanned while reading after every fragment, with `view(i)` per read. */
  function scannedReadingEach(viewAt: (i: number) => PartialArguments): number {
    return work(() =>
      fragments.forEach((_, i) => {
        const view = viewAt(i);
        view.has('missing');
        view.stringLength('command');
      }),
    ).scanned;
  }

  function expectEachCharacterScannedOnce(scanned: number): void {
    expect(scanned, 'characters scanned').to.equal(text.length);
  }

  it('reading after every fragment scans each character once', () => {
    const view = PartialArguments.streaming();
    expectEachCharacterScannedOnce(
      scannedReadingEach((i) => {
        view.append(fragments[i]!);
        return view;
      }),
    );
  });

  it('reading after every fragment scans each character once (negative control)', () => {
    // Rebuilding a view over the cumulative text at every read is what the reader avoids.
    let received = '';
    const scanned = scannedReadingEach((i) => {
      received += fragments[i]!;
      const view = PartialArguments.streaming();
      view.append(received);
      return view;
    });
    expect(() => expectEachCharacterScannedOnce(scanned)).to.throw(/characters scanned/);
  });

  const { text: write, contentRaw } = writeArgs(8_000, 0);

  function expectPrefixWork(w: Work<unknown>): void {
    expect(w.decoded, 'characters decoded').to.be.below(4 * KiB);
  }

  it('a prefix query stops once it has its answer', () => {
    const view = PartialArguments.streaming();
    const w = work(() => {
      for (const f of fragment(write, [4 * KiB])) {
        view.append(f);
        view.textPrefix('content', 512);
      }
      return view.seal(write).textPrefix('content', 512);
    });
    expect(w.result).to.have.length(512);
    expectPrefixWork(w);
  });

  it('a prefix query stops once it has its answer (negative control)', () => {
    const view = PartialArguments.streaming();
    const w = work(() => {
      for (const f of fragment(write, [4 * KiB])) {
        view.append(f);
        view.text('content')?.slice(0, 512);
      }
    });
    expect(w.decoded).to.be.at.least(contentRaw / 2);
    expect(() => expectPrefixWork(w)).to.throw(/characters decoded/);
  });

  it("a closed string's full text is decoded natively, not walked", () => {
    const view = PartialArguments.fromText(write);
    const w = work(() => view.text('content'));
    expect(w.result).to.equal(JSON.parse(write).content);
    expect(w.decoded, 'characters walked').to.be.below(contentRaw / 100);
    expect(w.parsed, 'native parses').to.equal(1);
  });
});

describe('refresh() compares only what was read', () => {
  const fragments = fragment(bashArgs(4000), [16]);

  it('with nothing read, refresh() returns false and scans nothing', () => {
    const view = PartialArguments.streaming();
    const w = work(() =>
      fragments.map((f) => {
        view.append(f);
        return view.refresh();
      }),
    );
    expect(w.result.every((changed) => changed === false)).to.equal(true);
    expect(w.scanned).to.equal(0);
    expect(w.decoded + w.parsed).to.equal(0);
    const sealed = PartialArguments.fromText(fragments.join(''));
    expect(work(() => sealed.refresh()).scanned).to.equal(0);
  });

  it('with nothing read, refresh() returns false and scans nothing (negative control)', () => {
    const view = PartialArguments.streaming();
    view.append(fragments[0]!);
    view.text('description');
    const w = work(() =>
      fragments.slice(1).map((f) => {
        view.append(f);
        return view.refresh();
      }),
    );
    expect(w.result.some((changed) => changed)).to.equal(true);
    expect(() => expect(w.scanned).to.equal(0)).to.throw();
  });

  it("one consumer's read cannot swallow another's change", () => {
    const view = PartialArguments.streaming();
    view.append('{"description":"Run the');
    expect(view.text('description'), 'consumer A').to.equal('Run the');
    view.append(' tests","command":"npm t"}');
    expect(view.text('description'), 'consumer B').to.equal('Run the tests');
    expect(view.refresh(), 'the change B already saw').to.equal(true);
    expect(view.refresh(), 'nothing new').to.equal(false);
  });

  it('a read between refreshes never moves the baseline', () => {
    const view = PartialArguments.streaming();
    view.append('{"description":"a');
    view.text('description');
    expect(view.refresh()).to.equal(false);
    view.append('b');
    view.text('description');
    view.append('c');
    view.text('description');
    expect(view.refresh()).to.equal(true);
    view.append('"}');
    view.text('description');
    expect(view.refresh(), 'the closing quote does not change the text').to.equal(false);
  });
});

describe('stringLength with a step changes once per step', () => {
  /** Streams content in 16-unit fragments, publishing every 7 fragments (112 units). */
  function publishes(body: string, read: (view: PartialArguments) => unknown) {
    const prefix = '{"file_path":"/a.txt","content":"';
    const text = `${prefix}${body}"}`;
    const exact = (JSON.parse(`"${body}"`) as string).length;
    const view = PartialArguments.streaming();
    const answers: unknown[] = [];
    const changes: boolean[] = [];
    // The decoded length the reader must see at each publication (undefined before the
    // value starts), modelled from the text received so far.
    const lengths: (number | undefined)[] = [];
    let received = 0;
    const publish = () => {
      answers.push(read(view));
      changes.push(view.refresh());
      const open = received - prefix.length;
      if (open < 0) lengths.push(undefined);
      else if (open > body.length) lengths.push(exact);
      else lengths.push(openText(body.slice(0, open)).length);
    };
    fragment(text, [16]).forEach((f, i) => {
      view.append(f);
      received += f.length;
      if (i % 7 === 6) publish();
    });
    publish();
    expect(view.seal(text)).to.equal(view);
    publish();
    return { answers, changes, lengths, exact };
  }

  const count = (changes: boolean[]) => changes.filter(Boolean).length;
  const transitions = (values: unknown[]) => values.filter((v, i) => i > 0 && v !== values[i - 1]);

  for (const [name, body] of [
    ['plain content', 'abcdefghij'.repeat(2_033)],
    ['content with escapes', 'ab\\ncd\\u00e9\\"\\\\'.repeat(1_500)],
  ] as const) {
    it(`refresh() is true only when a 1024 boundary is crossed: ${name}`, () => {
      const step = 1024;
      const { answers, changes, lengths, exact } = publishes(body, (v) =>
        v.stringLength('content', { step }),
      );
      const expected = lengths.map((n) => (n === undefined || n === exact ? n : n - (n % step)));
      expect(answers).to.deep.equal(expected);
      expect(changes[0], 'the first read sets the baseline').to.equal(false);
      changes.forEach((changed, i) => {
        if (i > 0) expect(changed, `publication ${i}`).to.equal(expected[i] !== expected[i - 1]);
      });
      expect(count(changes)).to.equal(transitions(expected).length);
      expect(count(changes)).to.be.below(exact / step + 3);
    });

    it(`refresh() is true only when a 1024 boundary is crossed: ${name} (negative control)`, () => {
      const { answers, changes, lengths, exact } = publishes(body, (v) =>
        v.stringLength('content'),
      );
      expect(answers).to.deep.equal(lengths);
      const crossings = transitions(
        lengths.map((n) => (n === undefined || n === exact ? n : n - (n % 1024))),
      ).length;
      expect(count(changes)).to.equal(transitions(lengths).length);
      expect(() => expect(count(changes)).to.equal(crossings)).to.throw();
    });
  }
});

describe('seal() keeps the reader when the text matches', () => {
  const text = bashArgs(3000);
  const fragments = fragment(text, [7, 16, 3]);

  function streamedAndRead() {
    const view = PartialArguments.streaming();
    for (const f of fragments) view.append(f);
    expect(view.has('missing')).to.equal(false);
    expect(view.text('description')).to.equal('Run the test suite');
    return view;
  }

  it('with the matching text: the same reader, sealed, its index kept', () => {
    const view = streamedAndRead();
    const w = work(() => {
      const sealed = view.seal(text);
      return [sealed, sealed.text('description'), sealed.has('command')] as const;
    });
    expect(w.result[0]).to.equal(view);
    expect(w.result[1]).to.equal('Run the test suite');
    expect(w.result[2]).to.equal(true);
    expect(w.scanned, 'nothing rescanned').to.equal(0);
    expect(view.closed()).to.equal(true);
    expect(() => view.append('x')).to.throw();
  });

  it('with the matching text: the same reader, even when never read', () => {
    const view = PartialArguments.streaming();
    for (const f of fragments) view.append(f);
    expect(view.seal(text)).to.equal(view);
    expect(view.text('description')).to.equal('Run the test suite');
    expect(view.seal(text), 'sealing again').to.equal(view);
  });

  it('with a conflicting text of the same length: a new reader with the new content', () => {
    const view = streamedAndRead();
    const other = text.replace('Run the test suite', 'Run the lint suite');
    expect(other.length).to.equal(text.length);
    const sealed = view.seal(other);
    expect(sealed).to.not.equal(view);
    expect(sealed.text('description')).to.equal('Run the lint suite');
    expect(sealed.closed()).to.equal(true);
    expect(view.text('description'), 'the old reader is unchanged').to.equal('Run the test suite');
  });

  it('with a shorter or a longer text: a new reader', () => {
    const view = streamedAndRead();
    const shorter = view.seal(text.slice(0, -1));
    expect(shorter).to.not.equal(view);
    expect(shorter.has('missing')).to.equal(false);
    expect(shorter.invalid, 'the shorter text is not a complete object').to.be.instanceOf(Error);

    const gap = PartialArguments.streaming();
    for (const f of fragments.slice(0, -3)) gap.append(f);
    gap.text('description');
    const longer = gap.seal(text);
    expect(longer).to.not.equal(gap);
    expect(longer.value('command')).to.equal(JSON.parse(text).command);
    expect(longer.invalid).to.equal(null);

    const spaced = streamedAndRead().seal(`${text} `);
    expect(spaced.value('description')).to.equal('Run the test suite');
  });

  it('empty fragments change nothing', () => {
    const view = PartialArguments.streaming();
    view.append('');
    for (const f of fragments) {
      view.append(f);
      view.append('');
    }
    expect(view.text('description')).to.equal('Run the test suite');
    expect(view.seal(text)).to.equal(view);
  });

  it('append() on a sealed view throws', () => {
    const sealed = PartialArguments.streaming();
    sealed.append('{}');
    sealed.seal('{}');
    for (const view of [
      sealed,
      PartialArguments.fromText('{}'),
      PartialArguments.fromObject({}),
      PartialArguments.empty,
    ]) {
      expect(() => view.append('{')).to.throw();
    }
    expect(PartialArguments.empty.has('{')).to.equal(false);
  });
});

describe('two views of the same source are structurally equal whatever was read', () => {
  const text = JSON.stringify({
    description: 'd\\n😀',
    content: 'x\n'.repeat(500),
    list: [1, { a: 'b' }],
  });
  const fragments = fragment(text, [5, 1, 13]);

  function readHeavily(view: PartialArguments): void {
    for (const key of ['description', 'content', 'list', 'missing']) {
      view.has(key);
      view.kind(key);
      view.complete(key);
      view.text(key);
      view.textPrefix(key, 3);
      view.stringLength(key);
      view.stringLength(key, { step: 8 });
      view.value(key);
    }
    view.closed();
    view.refresh();
  }

  function pair() {
    const heavy = PartialArguments.streaming();
    const idle = PartialArguments.streaming();
    for (const f of fragments) {
      heavy.append(f);
      idle.append(f);
      readHeavily(heavy);
    }
    return { heavy, idle };
  }

  it('a stream read after every fragment equals one never read, before and after sealing', () => {
    const { heavy, idle } = pair();
    expect(heavy).to.deep.equal(idle);
    expect(heavy.seal(text)).to.deep.equal(idle.seal(text));
    const read = PartialArguments.fromText(text);
    readHeavily(read);
    expect(read).to.deep.equal(PartialArguments.fromText(text));
  });

  it('a view that kept a read cache in a public field would differ (negative control)', () => {
    const { heavy, idle } = pair();
    Object.defineProperty(heavy, 'decoded', { value: heavy.text('content'), enumerable: true });
    expect(() => expect(heavy).to.deep.equal(idle)).to.throw();
  });
});

describe('refresh() reports changes at the granularity of each read', () => {
  it('text(description) changes on every character', () => {
    const description = 'Install the dependencies';
    const view = PartialArguments.streaming();
    view.append('{"description":"');
    expect(view.text('description')).to.equal('');
    expect(view.refresh()).to.equal(false);
    for (const ch of description) {
      view.append(ch);
      view.text('description');
      expect(view.refresh(), `after ${JSON.stringify(ch)}`).to.equal(true);
    }
    view.append('","command":"npm ci"}');
    expect(view.text('description')).to.equal(description);
    expect(view.refresh(), 'other fields arriving').to.equal(false);
  });

  it('a partial escape or half a surrogate pair is not a change', () => {
    const view = PartialArguments.streaming();
    view.append('{"description":"a');
    view.text('description');
    view.refresh();
    for (const [piece, changed, shown] of [
      ['\\', false, 'a'],
      ['u00', false, 'a'],
      ['e9', true, 'aé'],
      ['\ud83d', false, 'aé'],
      ['\ude00', true, 'aé😀'],
      ['\\ud83d', false, 'aé😀'],
      ['\\ude00', true, 'aé😀😀'],
    ] as const) {
      view.append(piece);
      expect(view.text('description'), `after ${JSON.stringify(piece)}`).to.equal(shown);
      expect(view.refresh(), `after ${JSON.stringify(piece)}`).to.equal(changed);
    }
  });

  it('has, kind and complete answers change when a value starts and when it ends', () => {
    const view = PartialArguments.streaming();
    const read = () => [view.has('a'), view.kind('a'), view.complete('a'), view.complete()];
    const steps: [string, unknown[], boolean][] = [
      ['{"a"', [false, undefined, false, false], false],
      [': ', [false, undefined, false, false], false],
      ['[1', [true, 'array', false, false], true],
      [',2', [true, 'array', false, false], false],
      [']', [true, 'array', true, false], true],
      [',"b":1', [true, 'array', true, false], false],
      ['}', [true, 'array', true, true], true],
    ];
    read();
    view.refresh();
    for (const [piece, answers, changed] of steps) {
      view.append(piece);
      expect(read(), `after ${JSON.stringify(piece)}`).to.deep.equal(answers);
      expect(view.refresh(), `after ${JSON.stringify(piece)}`).to.equal(changed);
    }
  });

  it('closed() changes when the object closes', () => {
    const view = PartialArguments.streaming();
    view.append('{"a":1');
    expect(view.closed()).to.equal(false);
    view.refresh();
    view.append('}');
    expect(view.closed()).to.equal(true);
    expect(view.refresh()).to.equal(true);
  });

  it('fromText, fromObject and empty views never report a change', () => {
    const views = [
      PartialArguments.fromText('{"a":"x","b":[1]}'),
      PartialArguments.fromText('{"a":[1,]}'),
      PartialArguments.fromObject({ a: 'x', b: [1] }),
      PartialArguments.empty,
    ];
    for (const view of views) {
      expect(view.refresh(), 'before any read').to.equal(false);
      view.text('a');
      view.value('b');
      view.stringLength('a', { step: 2 });
      view.closed();
      expect(view.refresh(), 'after reads').to.equal(false);
      view.value('a');
      expect(view.refresh(), 'after more reads').to.equal(false);
    }
  });
});

describe('keys follow JSON.parse', () => {
  it('__proto__ is an ordinary key and pollutes nothing', () => {
    const text = '{"__proto__":{"polluted":true,"x":[1]},"constructor":{"prototype":{"p":1}}}';
    const whole = PartialArguments.fromText(text);
    const streamed = PartialArguments.streaming();
    for (const f of fragment(text, [3])) streamed.append(f);
    for (const view of [whole, streamed]) {
      expect(view.has('__proto__')).to.equal(true);
      expect(view.kind('__proto__')).to.equal('object');
      expect(view.value('__proto__')).to.deep.equal({ polluted: true, x: [1] });
      expect(view.value('constructor')).to.deep.equal({ prototype: { p: 1 } });
    }
    const probe: Record<string, unknown> = {};
    expect(probe.polluted).to.equal(undefined);
    expect(Object.prototype).to.not.have.property('polluted');
    expect(Object.prototype).to.not.have.property('p');
  });

  it('keys inherited by plain objects are absent unless present', () => {
    const view = PartialArguments.fromText('{"a":1}');
    for (const key of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
      expect(view.has(key), key).to.equal(false);
      expect(view.value(key), key).to.equal(undefined);
      expect(view.kind(key), key).to.equal(undefined);
    }
  });

  it('repeated keys: the last one wins', () => {
    const view = PartialArguments.streaming();
    view.append('{"a":1,"b":"x",');
    expect(view.value('a')).to.equal(1);
    view.append('"a":"two","b":"y"');
    expect(view.kind('a')).to.equal('string');
    expect(view.value('a')).to.equal('two');
    expect(view.text('b')).to.equal('y');
    view.append(',"a":[3]}');
    expect(view.value('a')).to.deep.equal([3]);
    expect(PartialArguments.fromText('{"a":1,"a":2}').value('a')).to.equal(2);
  });
});

describe('fromObject borrows a parsed payload', () => {
  it('value() returns the payload’s own values, not copies', () => {
    const nested = { deep: [1, 2, { x: 'y' }] };
    const list = ['a', 'b'];
    const payload = { file_path: '/a.ts', nested, list, n: 1.5, ok: false, none: null };
    const view = PartialArguments.fromObject(payload);
    expect(view.value('nested')).to.equal(nested);
    expect(view.value('list')).to.equal(list);
    expect(view.text('file_path')).to.equal('/a.ts');
    expect(view.stringLength('file_path')).to.equal(5);
    expect(view.stringLength('file_path', { step: 4 })).to.equal(5);
    expect(view.textPrefix('file_path', 2)).to.equal('/a');
    expect(view.kind('nested')).to.equal('object');
    expect(view.kind('list')).to.equal('array');
    expect(view.kind('n')).to.equal('number');
    expect(view.kind('ok')).to.equal('boolean');
    expect(view.kind('none')).to.equal('null');
    expect(view.text('n')).to.equal(undefined);
    expect(view.has('missing')).to.equal(false);
    expect(view.has('toString')).to.equal(false);
    expect(view.complete('nested')).to.equal(true);
    expect(view.complete()).to.equal(true);
    expect(view.closed()).to.equal(true);
    expect(view.invalid).to.equal(null);
  });

  it('a parsed __proto__ key is an ordinary field', () => {
    const payload = JSON.parse('{"__proto__":{"x":1}}') as object;
    const view = PartialArguments.fromObject(payload);
    expect(view.has('__proto__')).to.equal(true);
    expect(view.value('__proto__')).to.deep.equal({ x: 1 });
  });

  it('empty is one shared closed view with no fields', () => {
    const empty = PartialArguments.empty;
    expect(PartialArguments.empty).to.equal(empty);
    expect(empty.has('a')).to.equal(false);
    expect(empty.has('')).to.equal(false);
    expect(empty.value('a')).to.equal(undefined);
    expect(empty.text('a')).to.equal(undefined);
    expect(empty.closed()).to.equal(true);
    expect(empty.invalid).to.equal(null);
    expect(empty.refresh()).to.equal(false);
  });
});
