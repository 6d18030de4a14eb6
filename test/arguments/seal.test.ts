import { expect } from 'chai';
import fc from 'fast-check';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { describe, it } from '../harness.js';

describe('seal() after partial reads', () => {
  it('reads escapes that arrived after the last read, once the matching text replaces the fragments', () => {
    const content = 'say "hi"\n\\path\t\u00e9\ud83d\ude00 end';
    const text = JSON.stringify({ file_path: '/a.ts', note: 'plain text, no escapes', content });
    const cut = text.indexOf('"content"');
    const args = PartialArguments.streaming();
    args.append(text.slice(0, cut));
    expect(args.text('file_path')).to.equal('/a.ts');
    args.append(text.slice(cut));
    expect(args.seal(text)).to.equal(args);
    expect(args.value('content')).to.equal(content);
    expect(args.stringLength('content')).to.equal(content.length);
    expect(args.invalid).to.equal(null);
  });

  it('agrees with JSON.parse for any text, any cut and any read before sealing', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
        fc.nat(),
        (object, at) => {
          const text = JSON.stringify(object);
          const cut = at % (text.length + 1);
          const args = PartialArguments.streaming();
          args.append(text.slice(0, cut));
          for (const key of Object.keys(object)) args.text(key);
          args.append(text.slice(cut));
          const sealed = args.seal(text);
          expect(sealed).to.equal(args);
          for (const [key, value] of Object.entries(object)) {
            expect(sealed.value(key)).to.deep.equal(value);
          }
          expect(sealed.invalid).to.equal(null);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('sealJoined() (a block end the direct path vouched for)', () => {
  it('seals the same reader without comparing a character, and a later seal with that string compares none either (negative control: seal() compares them all)', async () => {
    const { argumentProbe } = await import('../../src/arguments/probe.js');
    const text = JSON.stringify({ file_path: '/a.ts', content: 'x\\n'.repeat(200) });
    const streamed = (): PartialArguments => {
      const args = PartialArguments.streaming();
      for (let i = 0; i < text.length; i += 7) args.append(text.slice(i, i + 7));
      return args;
    };
    const before = argumentProbe.compared;
    const args = streamed();
    expect(args.sealJoined(text)).to.equal(args);
    expect(args.seal(text)).to.equal(args);
    expect(args.closed()).to.equal(true);
    expect(args.value('content')).to.equal(JSON.parse(text).content);
    expect(argumentProbe.compared - before).to.equal(0);

    const control = streamed();
    expect(control.seal(text)).to.equal(control);
    expect(argumentProbe.compared - before).to.be.at.least(text.length);
  });

  it('falls back to comparing when the lengths differ: a text that is not the fragments gets a fresh view', () => {
    const args = PartialArguments.streaming();
    args.append('{"a":');
    const sealed = args.sealJoined('{"a":1}');
    expect(sealed).to.not.equal(args);
    expect(sealed.value('a')).to.equal(1);
    expect(sealed.closed()).to.equal(true);
  });
});
