/**
 * Loading a long session newest-first in small pages ("scroll up for more") costs the same
 * per page at the end as at the start: placing a page never visits what is already held.
 * Work is counted (seqs looked up, anchors visited by a binary search), never timed.
 */
import { expect } from 'chai';
import { Places } from '../../src/assembler/places.js';
import { assemblerProbe } from '../../src/assembler/probe.js';
import { describe, it } from '../harness.js';

const PAGE = 50;

/** Work of each page when `pages` pages of PAGE seqs are loaded newest-first. */
function workPerPage(place: (seqs: number[]) => void, work: () => number, pages: number): number[] {
  const perPage: number[] = [];
  for (let p = pages - 1; p >= 0; p--) {
    const seqs = Array.from({ length: PAGE }, (_, i) => p * PAGE + i + 1);
    const before = work();
    place(seqs);
    perPage.push(work() - before);
  }
  return perPage;
}

/** The largest work of the last tenth of the pages over that of the first tenth. */
function growth(perPage: readonly number[]): number {
  const tenth = Math.max(1, Math.floor(perPage.length / 10));
  const max = (list: readonly number[]) => Math.max(...list);
  return max(perPage.slice(-tenth)) / max(perPage.slice(0, tenth));
}

const probed = () => assemblerProbe.seqs + assemblerProbe.anchors;

/**
 * The placement the first Places did, kept for the negative control: a Set of every held seq
 * rebuilt per page, and sorted arrays spliced at the front. Counts the elements it touches.
 */
class RebuildingPlaces {
  readonly seqs: number[] = [];
  touched = 0;
  page(seqs: readonly number[]): void {
    const held = new Set(this.seqs);
    this.touched += this.seqs.length;
    const fresh = seqs.filter((seq) => !held.has(seq)).sort((a, b) => a - b);
    this.touched += fresh.length;
    for (const seq of fresh.reverse()) {
      this.seqs.unshift(seq);
      this.touched += this.seqs.length;
    }
  }
}

describe('paging: the cost of a page does not grow with what is held', () => {
  it('400 pages of 50 newest-first: the last pages count as much work as the first', () => {
    const places = new Places();
    places.live();
    const perPage = workPerPage((seqs) => places.page(seqs), probed, 400);
    expect(perPage[0], 'a page looks up each of its seqs').to.be.at.least(PAGE);
    expect(growth(perPage)).to.be.at.most(1.2);
  });

  it('(negative control) rebuilding the held set per page fails the same check', () => {
    const places = new RebuildingPlaces();
    const perPage = workPerPage(
      (seqs) => places.page(seqs),
      () => places.touched,
      400,
    );
    expect(growth(perPage)).to.be.greaterThan(5);
  });

  it('late events between held ones cost a binary search over the anchors, not a scan', () => {
    const places = new Places();
    for (let seq = 0; seq < 2 ** 14; seq++) places.durable(seq * 100);
    const before = probed();
    for (let seq = 1; seq < 1000; seq++) places.durable(seq * 37);
    const perEvent = (probed() - before) / 999;
    expect(perEvent).to.be.at.most(1 + 15);
    expect(perEvent, 'a search happened').to.be.at.least(10);
  });

  it('a page filling gaps between held seqs places each event by a binary search', () => {
    const places = new Places();
    for (let seq = 0; seq < 2 ** 12; seq++) places.durable(seq * 10);
    const before = probed();
    const page = Array.from({ length: 500 }, (_, i) => i * 7 + 1);
    const placed = places.page(page);
    expect(placed.length, 'held seqs are skipped').to.equal(
      page.filter((s) => s % 10 !== 0).length,
    );
    const locations = placed.map((p) => p.location);
    expect(locations, 'ascending').to.deep.equal([...locations].sort((a, b) => a - b));
    expect((probed() - before) / placed.length).to.be.at.most(2 + 13);
  });
});
