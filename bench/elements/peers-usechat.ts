/**
 * `bench:peers --browser`, the AI SDK's page: React 19 with `useChat` (`@ai-sdk/react`) over a
 * `DefaultChatTransport` to the stream server, rendering each tool part's name, path and input
 * size as the UI message stream grows. Written with `createElement` (no JSX transform).
 */
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { createElement as h, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { probe } from './peers-probe.js';

function Chat({ url, onReady }: { url: string; onReady: () => void }) {
  const { messages, sendMessage, status } = useChat({
    transport: new DefaultChatTransport({ api: url }),
  });
  useEffect(() => {
    void sendMessage({ text: 'Write the file.' });
  }, [sendMessage]);
  useEffect(() => {
    if (status === 'ready' && messages.length > 1) onReady();
  }, [status, messages.length, onReady]);
  return h(
    'main',
    null,
    messages.flatMap((message) =>
      message.parts.flatMap((part, k) => {
        if (!('toolCallId' in part)) return [];
        const input = (part.input ?? {}) as { file_path?: string; content?: string };
        const kib = Math.floor((input.content?.length ?? 0) / 1024);
        return [
          h(
            'div',
            { key: `${message.id}:${k}`, className: 'tool' },
            h('b', null, part.type.replace(/^tool-/, '')),
            ` ${input.file_path ?? ''} · ${kib} KiB`,
          ),
        ];
      }),
    ),
  );
}

window.peersRun = (url) =>
  new Promise((resolve) => {
    const recorder = probe(
      url,
      () => /Write/.test(document.body.textContent ?? ''),
      () => document.querySelector('.tool')?.textContent ?? '',
    );
    const host = document.createElement('div');
    document.body.append(host);
    createRoot(host).render(h(Chat, { url, onReady: () => void recorder.done().then(resolve) }));
  });
