/**
 * `textPrefix(key, units)` with limits that are not finite non-negative integers: Infinity
 * asks for the whole text so far; NaN, negative and -Infinity for nothing; fractions round
 * down. Every kind of view answers alike.
 */
import { expect } from 'chai';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { describe, it } from '../harness.js';

const text = '{"path":"src/a\\u00e9.ts","body":"line 1\\nline 2"}';

function views(): [string, PartialArguments][] {
  const streaming = PartialArguments.streaming();
  streaming.append(text.slice(0, 20));
  streaming.append(text.slice(20));
  const open = PartialArguments.streaming();
  open.append('{"path":"src/a\\u00e9.ts","body":"line 1\\nli');
  return [
    ['streaming', streaming],
    ['fromText', PartialArguments.fromText(text)],
    ['fromObject', PartialArguments.fromObject(JSON.parse(text))],
    ['open', open],
  ];
}

describe('textPrefix with a limit that is not a finite count', () => {
  // Failed before: non-finite limits read as 0, giving "".
  it('Infinity gives the whole text so far', () => {
    for (const [name, view] of views()) {
      expect(view.textPrefix('path', Number.POSITIVE_INFINITY), name).to.equal('src/aé.ts');
      const body = name === 'open' ? 'line 1\nli' : 'line 1\nline 2';
      expect(view.textPrefix('body', Number.POSITIVE_INFINITY), name).to.equal(body);
      expect(view.textPrefix('body', Number.POSITIVE_INFINITY), name).to.equal(view.text('body'));
    }
  });

  it('NaN, -Infinity and negative limits give "", fractions round down', () => {
    for (const [name, view] of views()) {
      expect(view.textPrefix('path', Number.NaN), name).to.equal('');
      expect(view.textPrefix('path', Number.NEGATIVE_INFINITY), name).to.equal('');
      expect(view.textPrefix('path', -3), name).to.equal('');
      expect(view.textPrefix('path', 2.9), name).to.equal('sr');
    }
  });

  it('an Infinity prefix of an open string changes, at refresh, as the text grows', () => {
    const view = PartialArguments.streaming();
    view.append('{"body":"ab');
    expect(view.textPrefix('body', Number.POSITIVE_INFINITY)).to.equal('ab');
    view.refresh();
    view.append('cd');
    expect(view.refresh()).to.equal(true);
    expect(view.textPrefix('body', Number.POSITIVE_INFINITY)).to.equal('abcd');
  });
});
