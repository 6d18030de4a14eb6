/**
 * The page of the agent server example: "Start a run" asks the server for a run, then the
 * timeline follows it with `followSession` (SSE, resuming with Last-Event-ID after a dropped
 * connection). The server authorizes the page by the cookie it set with this page's HTML.
 */
import '../../elements/tool-timeline.js';
import type { ToolTimelineElement } from '../../elements/classes.js';
import { followSession } from '../../src/rx/follow-session.js';

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
});
