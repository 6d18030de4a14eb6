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
