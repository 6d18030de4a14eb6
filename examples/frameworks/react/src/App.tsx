import { useState } from 'react';
import 'callfold/elements/tool-timeline';
import type {} from 'callfold/elements/react';
import { session } from '../../shared/session';

export function App() {
  const [source] = useState(session);
  const [opened, setOpened] = useState('');
  return (
    <>
      <tool-timeline
        source={source}
        expandGroups
        ontool-open-path={(event) => setOpened(event.detail.path)}
      >
        <p slot="empty">No activity yet.</p>
      </tool-timeline>
      <p>
        Opened: <output id="opened">{opened}</output>
      </p>
    </>
  );
}
