import { html, nothing, render, type TemplateResult } from 'lit';
import { styleMap } from 'lit/directives/style-map.js';
import type { CallTiming } from './stage-timings.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? sorted[middle]
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** One line on what the stages bought: how long before dispatch names and fields showed. */
function summary(calls: readonly CallTiming[]): TemplateResult | typeof nothing {
  const dispatched = calls.filter((call) => call.dispatch !== undefined);
  const names = dispatched.map((call) => (call.dispatch as number) - call.identity);
  const fields = dispatched.map((call) => (call.dispatch as number) - (call.firstField ?? 0));
  const typical = median(names);
  if (typical === undefined) return nothing;
  const longest = dispatched.reduce((a, b) =>
    (b.dispatch as number) - b.identity > (a.dispatch as number) - a.identity ? b : a,
  );
  return html`<p class="chart-summary">
    Of ${dispatched.length} dispatched calls, rows showed the tool a median
    <strong>${seconds(typical)}</strong> before dispatch and their first field
    <strong>${seconds(median(fields) ?? 0)}</strong> before; the ${longest.name} call
    <strong>${seconds((longest.dispatch as number) - longest.identity)}</strong> before.
  </p>`;
}

/** A label for a field's value: a path or URL by its last segment, prose by its start. */
function label(text: string | undefined): string {
  if (text === undefined) return '';
  const last = /^\S*\/([^/\s]+)$/.exec(text)?.[1];
  return last === undefined || text.length <= 16 ? text : `…/${last}`;
}

function row(call: CallTiming, scale: (ms: number) => string, now: number): TemplateResult {
  const end = call.dispatch ?? call.withdrawn ?? now;
  const title = [
    `${call.name}: named at ${seconds(call.identity)}`,
    call.firstField === undefined ? '' : `first field at ${seconds(call.firstField)}`,
    call.dispatch === undefined ? '' : `dispatched at ${seconds(call.dispatch)}`,
    call.result === undefined ? '' : `result at ${seconds(call.result)}`,
    call.withdrawn === undefined ? '' : `withdrawn at ${seconds(call.withdrawn)}`,
  ]
    .filter(Boolean)
    .join(', ');
  const span = (from: number, to: number) =>
    styleMap({ left: scale(from), width: `calc(${scale(to)} - ${scale(from)})` });
  return html`<li
    class="call"
    title=${title}
    data-call-id=${call.callId}
    ?data-withdrawn=${call.withdrawn !== undefined}
    ?data-error=${call.isError}
  >
    <span class="label"><b>${call.name}</b> ${label(call.firstFieldText)}</span>
    <span class="track" aria-hidden="true">
      <span class="span early" style=${span(call.identity, end)}></span>
      ${
        call.dispatch === undefined || call.result === undefined
          ? nothing
          : html`<span class="span running" style=${span(call.dispatch, call.result)}></span>`
      }
      <span class="mark identity" style=${styleMap({ left: scale(call.identity) })}></span>
      ${
        call.firstField === undefined
          ? nothing
          : html`<span class="mark field" style=${styleMap({ left: scale(call.firstField) })}></span>`
      }
      ${
        call.dispatch === undefined
          ? nothing
          : html`<span class="mark dispatch" style=${styleMap({ left: scale(call.dispatch) })}></span>`
      }
    </span>
    <span class="gain">
      ${
        call.withdrawn !== undefined
          ? 'withdrawn'
          : call.dispatch === undefined
            ? 'preparing'
            : `${seconds(call.dispatch - call.identity)} early`
      }
    </span>
  </li>`;
}

/**
 * Draws the stage chart into `container`: per tool call, on one time axis of `duration` ms,
 * when its name (●), its first field (◆) and its dispatch (■) became visible. The shaded
 * span is what a UI that waits for dispatch would not show; a call still preparing extends it
 * to `now`.
 */
export function renderStageChart(
  container: HTMLElement,
  calls: readonly CallTiming[],
  duration: number,
  now: number,
): void {
  const total = Math.max(duration, 1);
  const scale = (ms: number) => `${((100 * Math.min(ms, total)) / total).toFixed(2)}%`;
  const ticks = [];
  const step = total > 40_000 ? 10_000 : total > 8_000 ? 5_000 : 1_000;
  for (let at = 0; at <= total; at += step) ticks.push(at);
  render(
    html`${summary(calls)}
      <ol class="calls" aria-label="Tool calls by time">
        ${calls.map((call) => row(call, scale, now))}
      </ol>
      <div class="axis" aria-hidden="true">
        <span class="label"></span>
        <span class="track">
          ${ticks.map((at) => html`<span class="tick" style=${styleMap({ left: scale(at) })}>${at / 1000} s</span>`)}
        </span>
        <span class="gain"></span>
      </div>
      <p class="legend">
        <span class="mark identity"></span> named <span class="mark field"></span> first field
        <span class="mark dispatch"></span> dispatched <span class="swatch early"></span> shown
        before dispatch <span class="swatch running"></span> running
      </p>`,
    container,
  );
}
