import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { toNodeListener } from '../../../src/server/node-listener.js';
import {
  type SessionHandler,
  type SessionHandlerOptions,
  sessionHandler,
} from '../../../src/server/session-handler.js';
import type { SessionStore } from '../../../src/server/session-store.js';

export interface RunningServer {
  readonly server: Server;
  readonly handler: SessionHandler;
  /** `http://127.0.0.1:<port>/sessions/` */
  readonly base: string;
  /** Destroys every open connection (a network drop, as the clients see it). */
  drop(): void;
  close(): Promise<void>;
}

/** A real node:http server on a free loopback port serving `store` through sessionHandler. */
export async function serveSessions(
  store: SessionStore,
  options: Partial<SessionHandlerOptions> = {},
): Promise<RunningServer> {
  const handler = sessionHandler(store, {
    sessionId: (request) => new URL(request.url).pathname.split('/')[2] ?? '',
    authorize: () => true,
    ...options,
  });
  const sockets = new Set<Socket>();
  const server = createServer(toNodeListener(handler));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    handler,
    base: `http://127.0.0.1:${port}/sessions/`,
    drop: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
