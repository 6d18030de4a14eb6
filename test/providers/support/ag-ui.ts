/**
 * The AG-UI recordings of test/fixtures/provider-recordings/ag-ui/ (see its SOURCES.md) and
 * the ways an AG-UI stream reaches `fromAGUI`: event objects, or the SSE `@ag-ui/encoder`
 * writes (`data: ${JSON.stringify(event)}\n\n`).
 */
import { Assembler } from '../../../src/conversation/assembler.js';
import { type CallfoldEvent, isDurableEvent } from '../../../src/events/types.js';
import { project } from '../../assembler/support/driver.js';
import { recording } from './recordings.js';

/** A `.server-events.json` recording: a JSON array of events, its UTF-8 BOM stripped. */
export async function serverEvents(name: string): Promise<Record<string, unknown>[]> {
  const text = await recording(`ag-ui/${name}.server-events.json`);
  return JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>[];
}

/** A `.jsonl` recording: one event per line. */
export async function jsonlEvents(name: string): Promise<Record<string, unknown>[]> {
  const text = await recording(`ag-ui/${name}.jsonl`);
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The Dart SDK's SSE fixture, split at its `## ` headings: heading → SSE text. */
export async function dartSections(): Promise<Map<string, string>> {
  const text = await recording('ag-ui/dart-sse_streams.txt');
  const sections = new Map<string, string>();
  for (const part of text.split(/^## /m).slice(1)) {
    const newline = part.indexOf('\n');
    sections.set(part.slice(0, newline).trim(), part.slice(newline + 1));
  }
  return sections;
}

/** Events framed as `@ag-ui/encoder` frames them. */
export function encoderSSE(events: readonly unknown[]): string {
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
}

/** The projection of the Conversation `events` fold into. */
export function conversationOf(events: readonly CallfoldEvent[]): unknown {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return project(assembler.publish());
}

/** The Conversation folded live, and from the durable events alone (history): they must be equal. */
export function liveAndHistory(events: readonly CallfoldEvent[]): [unknown, unknown] {
  return [conversationOf(events), conversationOf(events.filter(isDurableEvent))];
}
