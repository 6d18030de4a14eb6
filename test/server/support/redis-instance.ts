/**
 * One server instance for the multi-instance tests: `node redis-instance.js <redis url>`
 * serves /sessions/<id> from a redisStore on a free loopback port and prints the port.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../../../src/server/node-listener.js';
import { redisStore } from '../../../src/server/redis/redis-store.js';
import { sessionHandler } from '../../../src/server/session-handler.js';

const [url = ''] = process.argv.slice(2);
const store = await redisStore({ url, leaseMs: 1000, sweepMs: 200 });
const handler = sessionHandler(store, {
  sessionId: (request) => new URL(request.url).pathname.split('/')[2] ?? '',
  authorize: () => true,
  heartbeatMs: 1000,
});
const server = createServer(toNodeListener(handler));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  void store.close().then(() => process.exit(0));
});
