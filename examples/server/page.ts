/**
 * The page of the agent server example: "Start a run" asks the server for a run, then the
 * timeline follows it with `followSession` (SSE, resuming with Last-Event-ID after a dropped
 * connection). The server authorizes the page by the cookie it set with this page's HTML.
 */
import '../../elements/tool-timeline.js';
import type { ToolTimelineElement } from '../../elements/classes.js';
import { followSession } from '../../src/client/follow-session.js';

const timeline = document.querySelector('#timeline') as ToolTimelineElement;
const status = document.querySelector('#status') as HTMLElement;
const start = document.querySelector('#start') as HTMLButtonElement;

start.addEventListener('click', async () => {
  start.disabled = true;
  const response = await fetch('/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!response.ok) {
    status.textContent = `The server refused the run (${response.status}).`;
    start.disabled = false;
    return;
  }
  const { sessionId } = (await response.json()) as { sessionId: string };
  status.textContent = `Following ${sessionId}.`;
  timeline.source = followSession(`/sessions/${sessionId}/events`);
  start.disabled = false;
  void watch(sessionId);
});

/**
 * Asks the server how the run is doing until it ends, and says so in the status line: a
 * run that failed (a wrong key, an endpoint down) ends its turn for the timeline, which
 * cannot tell why; the reason comes from `GET /sessions/<id>/run`, shown as text.
 */
async function watch(sessionId: string): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const response = await fetch(`/sessions/${sessionId}/run`).catch(() => undefined);
    if (!response) continue; // the server unreachable for now: ask again
    const run = response.ok
      ? ((await response.json()) as { state: string; error?: string })
      : { state: 'unknown', error: `HTTP ${response.status}` };
    if (run.state === 'running') continue;
    if (!String(status.textContent).startsWith(`Following ${sessionId}`)) return; // a newer run
    status.textContent =
      run.state === 'done'
        ? `${sessionId} is done.`
        : `${sessionId} ${run.state === 'failed' ? 'failed' : 'state unknown'}: ${run.error ?? 'no reason given'}`;
    return;
  }
}
