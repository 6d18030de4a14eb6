/**
 * Demo of the elements: a timeline fed by a live Subject of events (a call streaming, then
 * dispatched and answered), and rows of every category at every stage, all folded by the
 * real Assembler.
 */
import { Subject } from 'rxjs';
import '../elements/tool-timeline.js';
import type { ToolRowElement } from '../elements/classes.js';
import { Assembler } from '../src/conversation/assembler.js';
import type { CallfoldEvent } from '../src/events/types.js';
import type { AssembleInput } from '../src/rx/assembler-command.js';

const calls: [name: string, args: Record<string, unknown>, output: unknown, isError?: boolean][] = [
  [
    'Read',
    { file_path: 'src/groups/builder.ts', offset: 40, limit: 80 },
    '40 export class Builder {',
  ],
  ['view_image', { path: 'docs/screenshot.png' }, [{ type: 'image' }]],
  [
    'Write',
    {
      file_path: 'docs/guide.md',
      content: `# Guide\n\n${'Streams fold into nodes; rows read fields.\n'.repeat(200)}`,
    },
    'File written',
  ],
  [
    'Edit',
    { file_path: 'src/index.ts', old_string: 'export { a };', new_string: 'export { a, b };' },
    'Applied 1 edit',
  ],
  ['Grep', { pattern: 'TODO\\(', path: 'src', glob: '*.ts' }, 'src/a.ts:3: // TODO(me)'],
  [
    'WebFetch',
    { url: 'https://lit.dev/docs/', prompt: 'How does repeat key items?' },
    'By a key function.',
  ],
  [
    'TodoWrite',
    {
      todos: [
        { content: 'Write the rows', status: 'completed' },
        { content: 'Test keyboard use', status: 'in_progress', activeForm: 'Testing keyboard use' },
        { content: 'Ship', status: 'pending' },
      ],
    },
    'Todos updated',
  ],
  [
    'AskUserQuestion',
    {
      questions: [
        { question: 'Which runtime first?', options: [{ label: 'Node' }, { label: 'Deno' }] },
      ],
    },
    'Node',
  ],
  [
    'Bash',
    { description: 'Run the unit tests', command: 'npm test -- --reporter=spec' },
    { stdout: 'ℹ pass 412\nℹ fail 0', stderr: '', exitCode: 0 },
  ],
  [
    'PowerShell',
    { description: 'Remove the build folder', command: 'Remove-Item build -Recurse' },
    'Exit code: 1\nRemove-Item: Cannot find path "build" because it does not exist.',
    true,
  ],
  [
    'run_code',
    { description: 'Count the tool names', language: 'python', code: 'print(len(names))' },
    '143',
  ],
  [
    'deploy_app',
    { target: 'staging', dry_run: true },
    { content: [{ type: 'text', text: 'Deployed 3 services' }] },
  ],
];

/** Folds `events` and mounts one row per call under `container`. */
function rows(container: string, events: (assembler: Assembler) => void, expanded: boolean): void {
  const assembler = new Assembler();
  events(assembler);
  const host = document.getElementById(container) as HTMLElement;
  for (const node of assembler.publish().tools.values()) {
    const row = document.createElement('tool-row') as ToolRowElement;
    row.node = node;
    row.expanded = expanded;
    host.append(row);
  }
}

let seq = 0;
const push = (assembler: Assembler, event: CallfoldEvent) => assembler.push(event);

rows(
  'preparing',
  (assembler) =>
    calls.forEach(([name, args], i) => {
      // Mid-stream: a write's content and a command's description still open; the others
      // with every field in but the closing brace.
      const text = JSON.stringify(args);
      const cut = name === 'Write' ? text.length - 2000 : name === 'Bash' ? 22 : text.length - 1;
      push(assembler, {
        type: 'stream/tool-call-delta',
        attemptId: 'p',
        block: i,
        callId: `p${i}`,
        name,
        args: text.slice(0, cut),
      });
    }),
  false,
);
rows(
  'start',
  (assembler) =>
    calls.slice(0, 6).forEach(([name, args], i) => {
      push(assembler, { type: 'tool/call', seq: ++seq, callId: `s${i}`, name, args });
    }),
  true,
);
rows(
  'result',
  (assembler) =>
    calls.slice(6).forEach(([name, args, output, isError], i) => {
      push(assembler, { type: 'tool/call', seq: ++seq, callId: `r${i}`, name, args });
      push(assembler, {
        type: 'tool/result',
        seq: ++seq,
        callId: `r${i}`,
        output,
        isError: isError === true,
      });
    }),
  true,
);

// The timeline folds a live source with assemble().
const source = new Subject<AssembleInput>();
const timeline = document.getElementById('timeline');
if (timeline) (timeline as HTMLElementTagNameMap['tool-timeline']).source = source;
const live = (event: CallfoldEvent) => source.next(event);
live({
  type: 'stream/text-delta',
  attemptId: 'a1',
  block: 0,
  text: 'I will read the builder, then run the tests.',
});
const bashArgs = JSON.stringify({ description: 'Run the unit tests', command: 'npm test' });
live({
  type: 'tool/call',
  seq: 1,
  callId: 't1',
  name: 'Read',
  args: { file_path: 'src/groups/builder.ts' },
});
live({ type: 'tool/result', seq: 2, callId: 't1', output: 'export class Builder {}' });
live({
  type: 'stream/tool-call-delta',
  attemptId: 'a1',
  block: 2,
  callId: 't2',
  name: 'Bash',
  args: bashArgs.slice(0, 30),
});
live({
  type: 'stream/tool-call-delta',
  attemptId: 'a1',
  block: 3,
  callId: 't3',
  name: 'Write',
  args: '{"file_path":"notes.md","content":"',
});
let written = 0;
const timer = setInterval(() => {
  written++;
  live({
    type: 'stream/tool-call-delta',
    attemptId: 'a1',
    block: 3,
    callId: 't3',
    args: 'x'.repeat(256),
  });
  if (written === 20) {
    live({
      type: 'stream/tool-call-delta',
      attemptId: 'a1',
      block: 2,
      callId: 't2',
      args: bashArgs.slice(30),
    });
    live({ type: 'tool/call', seq: 3, callId: 't2', name: 'Bash', args: bashArgs });
  }
  if (written === 40) clearInterval(timer);
}, 50);

document.addEventListener('tool-open-path', (event) => {
  const log = document.getElementById('log');
  if (log) log.textContent = `tool-open-path: ${event.detail.path}`;
});
