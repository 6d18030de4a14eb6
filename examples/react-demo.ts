/**
 * The same `<tool-timeline>` inside a React 19 app, to show that the elements need no
 * framework glue: React passes the Observable as the element's `source` property (React 19
 * sets properties on custom elements when the element has one of that name) and listens to
 * the element's DOM events through `on<event-name>` props. The app owns the replay's state
 * (speed, restarts) and renders its own log of `tool-open-path` events. The replay is the
 * recorded session's CallfoldEvents (`replayTranscript`), with no provider adapter.
 *
 * Written with `createElement` (aliased `h`) so that it needs no JSX transform.
 */
import { type ChangeEvent, createElement as h, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { tap } from 'rxjs';
import '../elements/tool-timeline.js';
import type { ToolOpenPathEvent } from '../elements/classes.js';
import { replayTranscript } from '../src/client/replay.js';
import { decodeTranscript, type TranscriptEntry } from '../src/wire/transcript.js';
import sessionUrl from './transcripts/demo-session.jsonl?url';

const speeds = [1, 4, 16, 100];

function App({ entries }: { entries: readonly TranscriptEntry[] }) {
  const [speed, setSpeed] = useState(
    () => Number(new URLSearchParams(location.search).get('speed')) || 1,
  );
  const [done, setDone] = useState(false);
  const [opened, setOpened] = useState<string[]>([]);
  // A new Observable per run: the element folds each source it is given from scratch.
  const replay = (at: number) =>
    replayTranscript(entries, { speed: at }).pipe(tap({ complete: () => setDone(true) }));
  const [source, setSource] = useState(() => replay(speed));
  const restart = (at: number) => {
    setSpeed(at);
    setDone(false);
    setSource(replay(at));
  };

  useEffect(() => {
    document.body.dataset.state = done ? 'done' : 'playing';
  }, [done]);

  return h(
    'main',
    { style: { maxWidth: '56rem', margin: '0 auto' } },
    h('h1', null, 'callfold elements in React'),
    h(
      'p',
      null,
      'A React 19 app renders <tool-timeline> like any element and hands it the replay as a property.',
    ),
    h(
      'div',
      { className: 'toolbar' },
      h(
        'label',
        null,
        'Speed ',
        h(
          'select',
          {
            value: speed,
            onChange: (event: ChangeEvent<HTMLSelectElement>) =>
              restart(Number(event.target.value)),
          },
          speeds.map((value) => h('option', { key: value, value }, `${value}×`)),
        ),
      ),
      h('button', { type: 'button', onClick: () => restart(speed) }, 'Restart'),
      h('span', { role: 'status' }, done ? 'Replay finished.' : 'Replaying…'),
    ),
    h('tool-timeline', {
      id: 'timeline',
      'expand-groups': '',
      source,
      'ontool-open-path': (event: ToolOpenPathEvent) =>
        setOpened((paths) => [...paths.slice(-4), event.detail.path]),
    }),
    h(
      'section',
      null,
      h('h2', null, 'Paths opened'),
      opened.length === 0
        ? h('p', null, 'Click a path in a row: React hears the element’s tool-open-path event.')
        : h(
            'ul',
            null,
            opened.map((path, i) => h('li', { key: i }, path)),
          ),
    ),
  );
}

const response = await fetch(sessionUrl);
const entries = decodeTranscript(await response.text());
const container = document.getElementById('root');
if (!container) throw new Error('react demo: #root is missing');
createRoot(container).render(h(App, { entries }));
