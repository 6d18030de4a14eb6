import { expect } from 'chai';
import fc from 'fast-check';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { argumentProbe } from '../../src/arguments/probe.js';
import { toolDetail } from '../../src/tools/detail.js';
import { DETAIL_CLUSTERS, DETAIL_PREFIX_LIMIT, detailText } from '../../src/tools/detail-text.js';
import { graphemes } from '../../src/tools/graphemes.js';
import { groupProbe } from '../../src/tools/probe.js';
import { describe, it } from '../harness.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function clusters(text: string): string[] {
  return Array.from(segmenter.segment(text), (data) => data.segment);
}

/** The definition, applied to the whole text: collapse, trim, 160 clusters, then "…". */
function oracle(text: string): string {
  const collapsed = text.replace(/[\s\p{Cc}]+/gu, ' ').replace(/^ | $/g, '');
  const all = clusters(collapsed);
  return all.length > DETAIL_CLUSTERS ? `${all.slice(0, DETAIL_CLUSTERS).join('')}…` : collapsed;
}

/** Work done by `run`: grapheme clusters visited and segmentation passes. */
function work(run: () => void): { segments: number; passes: number } {
  const segments = groupProbe.segments;
  const passes = groupProbe.passes;
  run();
  return { segments: groupProbe.segments - segments, passes: groupProbe.passes - passes };
}

function sealed(fields: Record<string, unknown>): PartialArguments {
  return PartialArguments.fromText(JSON.stringify(fields));
}

/** Pieces of text a detail must treat as whole clusters, spaces or both. */
const ATOMS = [
  'a',
  'Z',
  '-',
  'é',
  'e\u0301',
  'a\u0308\u0301',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '👍🏽',
  '🇫🇷',
  '🏴󠁧󠁢󠁳󠁣󠁴󠁿',
  '漢',
  '字',
  '𠀀',
  'שָׁלוֹם',
  'مَرْحَبًا',
  '\u200f',
  'क्षि',
  ' ',
  '  ',
  '\t',
  '\r\n',
  '\n',
  '\u00a0',
  '\u3000',
  '\u0007',
  ' '.repeat(700),
  '\t\r\n'.repeat(300),
];

const texts = fc
  .array(fc.constantFrom(...ATOMS), { maxLength: 320 })
  .map((atoms) => atoms.join(''));

describe('detailText: whitespace', () => {
  it('collapses runs of any whitespace, CRLF and tabs included, and trims', () => {
    expect(detailText('  npm\t\ttest \r\n -- --watch\u00a0\u3000now \n')).to.equal(
      'npm test -- --watch now',
    );
    expect(detailText('\r\n\t ')).to.equal('');
    expect(detailText('a\u0000b\u0085c')).to.equal('a b c');
  });

  it('looks past whitespace runs longer than the 512-unit prefix', () => {
    expect(detailText(`${' '.repeat(5000)}ls -la`)).to.equal('ls -la');
    expect(detailText(`a${'\r\n'.repeat(3000)}b`)).to.equal('a b');
    const head = 'x'.repeat(DETAIL_CLUSTERS);
    expect(detailText(`${head}${' '.repeat(2000)}`)).to.equal(head);
    expect(detailText(`${head}${' '.repeat(2000)}y`)).to.equal(`${head}…`);
    expect(detailText(`${'x'.repeat(100)}${' \t'.repeat(1000)}${'y'.repeat(100)}`)).to.equal(
      `${'x'.repeat(100)} ${'y'.repeat(59)}…`,
    );
  });
});

describe('detailText: the prefix limit', () => {
  it('stops growing the prefix at DETAIL_PREFIX_LIMIT units', () => {
    const past = DETAIL_PREFIX_LIMIT + 10;
    expect(detailText(`a${' '.repeat(past)}b`)).to.equal('a…');
    expect(detailText(`${' '.repeat(past)}b`)).to.equal('');
    const zalgo = `a${'\u0301'.repeat(past)}`;
    const decoded = work(() =>
      expect(detailText(zalgo)).to.equal(`${zalgo.slice(0, DETAIL_PREFIX_LIMIT)}…`),
    );
    expect(decoded.passes).to.equal(8);
  });
});

describe('detailText: grapheme clusters', () => {
  it('never splits an emoji ZWJ sequence, a flag or a skin tone', () => {
    for (const emoji of ['👨‍👩‍👧‍👦', '🏳️‍🌈', '🇫🇷', '👍🏽', '🏴󠁧󠁢󠁳󠁣󠁴󠁿']) {
      const detail = detailText(emoji.repeat(200));
      expect(detail, emoji).to.equal(`${emoji.repeat(DETAIL_CLUSTERS)}…`);
      expect(detailText(emoji.repeat(DETAIL_CLUSTERS)), emoji).to.equal(
        emoji.repeat(DETAIL_CLUSTERS),
      );
    }
  });

  it('keeps combining marks with their base', () => {
    const decomposed = 'e\u0301'.repeat(300);
    expect(detailText(decomposed)).to.equal(`${'e\u0301'.repeat(DETAIL_CLUSTERS)}…`);
    const stacked = 'a\u0308\u0301\u0323'.repeat(170);
    expect(clusters(detailText(stacked))).to.have.length(DETAIL_CLUSTERS + 1);
  });

  it('counts CJK characters, including those outside the BMP, as one cluster each', () => {
    expect(detailText('漢字'.repeat(100))).to.equal(`${'漢字'.repeat(80)}…`);
    expect(detailText('𠀀'.repeat(161))).to.equal(`${'𠀀'.repeat(160)}…`);
    expect(detailText('𠀀'.repeat(160))).to.equal('𠀀'.repeat(160));
  });

  it('keeps right-to-left text, its marks and its direction controls in logical order', () => {
    const hebrew = 'שָׁלוֹם עוֹלָם ';
    const detail = detailText(hebrew.repeat(30));
    expect(detail.endsWith('…')).to.equal(true);
    expect(clusters(detail)).to.have.length(DETAIL_CLUSTERS + 1);
    expect(hebrew.repeat(30).startsWith(detail.slice(0, -1))).to.equal(true);
    const arabic = '\u200fمَرْحَبًا\tبِالْعَالَم\u200f';
    expect(detailText(arabic)).to.equal('\u200fمَرْحَبًا بِالْعَالَم\u200f');
  });

  it('agrees with the definition applied to the whole text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(detailText(text)).to.equal(oracle(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('detailText: bounded work', () => {
  it('does not segment a text of at most 160 units', () => {
    const family = '👨‍👩‍👧‍👦'.repeat(14);
    expect(family.length).to.be.at.most(160);
    expect(work(() => detailText(family))).to.deep.equal({ segments: 0, passes: 0 });
    expect(work(() => detailText(`  ${'x'.repeat(160)}\t\r\n`)).passes).to.equal(0);
    // Control: one unit more takes a pass.
    expect(work(() => detailText('x'.repeat(161)))).to.deep.equal({ segments: 161, passes: 1 });
  });

  it('visits at most 161 clusters per truncation pass', () => {
    expect(work(() => detailText('word '.repeat(10_000)))).to.deep.equal({
      segments: 161,
      passes: 1,
    });
    fc.assert(
      fc.property(texts, (text) => {
        const done = work(() => detailText(text));
        expect(done.segments).to.be.at.most((DETAIL_CLUSTERS + 1) * done.passes);
      }),
      { numRuns: 200 },
    );
  });
});

/** Raised by the unbounded variant once it has visited more clusters than allowed. */
class Tripwire extends Error {}

/**
 * The deliberately unbounded variant: the same collapse and cut, applied to the whole decoded
 * field instead of a bounded prefix. It segments in small windows only because Node 20's
 * Intl.Segmenter spends time proportional to the whole string on every step.
 */
function unboundedDetail(text: string, tripwire: number): string {
  const collapsed = text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  const all: string[] = [];
  const start = groupProbe.segments;
  for (let at = 0; at < collapsed.length; at += 256) {
    for (const { segment } of graphemes(collapsed.slice(at, at + 256))) {
      all.push(segment);
      if (groupProbe.segments - start > tripwire) throw new Tripwire();
    }
  }
  return all.length > DETAIL_CLUSTERS ? `${all.slice(0, DETAIL_CLUSTERS).join('')}…` : collapsed;
}

describe('toolDetail: a 10 MiB field', () => {
  const chunk = 'make  test\t'.repeat(6_000);
  const escaped = JSON.stringify(chunk).slice(1, -1);
  const streamed = () => {
    const args = PartialArguments.streaming();
    args.append('{"description":"');
    for (let length = 0; length < 10 * 1024 * 1024; length += chunk.length) args.append(escaped);
    return args;
  };

  it('reads a bounded prefix and visits at most 161 clusters', () => {
    const args = streamed();
    const decoded = argumentProbe.decoded;
    let detail = '';
    const done = work(() => {
      detail = toolDetail({ name: 'Bash', args }, 'bash');
    });
    expect(detail).to.equal(oracle(chunk.slice(0, 1000)));
    expect(done).to.deep.equal({ segments: 161, passes: 1 });
    // 513 units, some of them two-character escapes.
    expect(argumentProbe.decoded - decoded).to.be.at.most(2 * 513);
  });

  // The tripwire stops the unbounded read at 200,000 clusters, three orders of magnitude past
  // the bounded read's 161, of the field's ten million: enough to tell them apart (it stopped
  // at 2,000,000 before, 3.4 s of each runtime's CPU where this costs about 1.7).
  it('negative control: segmenting the whole field passes 200,000 clusters', () => {
    const text = streamed().text('description') as string;
    expect(text.length).to.be.at.least(10 * 1024 * 1024);
    const before = groupProbe.segments;
    expect(() => unboundedDetail(text, 200_000)).to.throw(Tripwire);
    expect(groupProbe.segments - before).to.be.greaterThan(200_000);
    expect(unboundedDetail(chunk, Number.POSITIVE_INFINITY)).to.equal(detailText(chunk));
  });
});

describe('toolDetail: streamed fields', () => {
  /** The JSON text cut at the given offsets. */
  const cutAt = (text: string, offsets: readonly number[]): string[] => {
    const points = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
    const out: string[] = [];
    let from = 0;
    for (const point of [...points, text.length]) {
      out.push(text.slice(from, point));
      from = point;
    }
    return out;
  };

  it('shows the decoded text so far, at any fragmentation, and settles once cut', () => {
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 40 }), (text, offsets) => {
        const json = JSON.stringify({ description: text, command: 'ls' });
        const read = PartialArguments.streaming();
        const truth = PartialArguments.streaming();
        let settled: string | undefined;
        for (const fragment of cutAt(json, offsets)) {
          read.append(fragment);
          truth.append(fragment);
          const detail = toolDetail({ name: 'Bash', args: read }, 'bash');
          const soFar = oracle(truth.text('description') ?? '');
          const expected = soFar !== '' ? soFar : oracle(truth.text('command') ?? '');
          if (truth.complete('command')) continue;
          expect(detail).to.equal(expected);
          if (settled !== undefined) expect(detail).to.equal(settled);
          if (detail.endsWith('…')) settled = detail;
        }
        expect(toolDetail({ name: 'Bash', args: read }, 'bash')).to.equal(oracle(text) || 'ls');
      }),
      { numRuns: 200 },
    );
  });

  it('reports no change once a field has 512 units and its cut is decided', () => {
    const args = PartialArguments.streaming();
    args.append(`{"description":"${'word '.repeat(120)}`);
    const detail = toolDetail({ name: 'Bash', args }, 'bash');
    expect(args.refresh()).to.equal(false);
    for (let i = 0; i < 50; i++) {
      args.append('more words ');
      expect(args.refresh(), `after ${i + 1} more`).to.equal(false);
      expect(toolDetail({ name: 'Bash', args }, 'bash')).to.equal(detail);
    }
    args.append('", "command": "ls"}');
    expect(args.refresh()).to.equal(false);
  });

  it('does not change the structural equality of the argument views', () => {
    const text = JSON.stringify({ description: '  spaced\tout  ', command: 'ls', n: [1, 2] });
    const read = PartialArguments.fromText(text);
    const unread = PartialArguments.fromText(text);
    expect(toolDetail({ name: 'Bash', args: read }, 'bash')).to.equal('spaced out');
    expect(read).to.deep.equal(unread);
    const streaming = PartialArguments.streaming();
    const other = PartialArguments.streaming();
    for (const part of [text.slice(0, 20), text.slice(20)]) {
      streaming.append(part);
      other.append(part);
      toolDetail({ name: 'Bash', args: streaming }, 'bash');
    }
    expect(streaming).to.deep.equal(other);
  });

  it('returns text equal to the field, never the field itself', () => {
    const path = `src/${'deep/'.repeat(20)}file.ts`;
    const args = sealed({ file_path: path, content: 'x'.repeat(100_000) });
    expect(toolDetail({ name: 'Write', args }, 'write')).to.equal(path);
  });
});
