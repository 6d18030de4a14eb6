import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { repositoryRoot } from '../../support/repository.js';
import { waitFor } from '../../support/wait-for.js';
import { freePort, serverReady } from './redis-server.js';

export interface ClusterNodeProcess {
  readonly host: string;
  readonly port: number;
  /** Kills the node at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /**
   * Starts a killed node again on its ports and config file: it rejoins the cluster (a
   * master whose replica took over comes back as that replica's replica).
   */
  restart(): Promise<void>;
}

export interface RunningCluster {
  /** Every node, as `redisStore({ cluster })` takes them. */
  readonly nodes: readonly ClusterNodeProcess[];
  /** The node (`host:port`) that serves `slot` as master now, per a live node's CLUSTER SLOTS. */
  masterOf(slot: number): Promise<string>;
  /**
   * Resolves once every live node reports `cluster_state:ok` and agrees on every slot's
   * master, and every live replica has synced with its master.
   */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** A cluster node's failure detection: short, so that a failover takes seconds. */
const NODE_TIMEOUT_MS = 1000;

interface NodeProcess {
  child: ChildProcess;
  readonly port: number;
  readonly busPort: number;
}

/** Starts a node on free ports, or again on the ports of `again` (its config file names them). */
async function startNode(binary: string, dir: string, again?: NodeProcess): Promise<NodeProcess> {
  for (let attempt = 0; ; attempt++) {
    // The cluster bus needs a port of its own (`cluster-port`): two free ones, probed.
    const port = again?.port ?? (await freePort());
    const busPort = again?.busPort ?? (await freePort());
    const child = spawn(
      binary,
      [
        ...['--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1'],
        ...['--cluster-enabled', 'yes', '--cluster-node-timeout', String(NODE_TIMEOUT_MS)],
        ...['--cluster-config-file', join(dir, `nodes-${port}.conf`), '--dir', dir],
        ...['--save', '', '--appendonly', 'no'],
        // A replica's first sync starts at once, not after the default 5 s wait for others.
        ...['--repl-diskless-sync-delay', '0'],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const { ready, output } = await serverReady(child, 15_000);
    if (ready) {
      child.stdout?.resume();
      child.stderr?.resume();
      return { child, port, busPort };
    }
    child.kill('SIGKILL');
    if (attempt >= 2 || again)
      throw new Error(`redis-server (cluster node) did not start:\n${output}`);
  }
}

const clusterInfo = async (client: Redis) => (await client.call('CLUSTER', 'INFO')) as string;

/**
 * A real Redis Cluster on loopback: three masters and a replica each (six redis-server
 * processes, `cluster-enabled yes`, persistence off, a temp dir each), made with
 * `redis-cli --cluster create … --cluster-replicas 1`; resolves once every node reports
 * `cluster_state:ok`. Installs redis-server (and so redis-cli, Debian's redis-tools) when
 * missing (scripts/find-redis.mjs). `stop` kills every node and removes the dirs; so does
 * the process's exit.
 */
export async function startCluster(): Promise<RunningCluster> {
  const finder = pathToFileURL(join(repositoryRoot(), 'scripts/find-redis.mjs')).href;
  const { redisServerPath } = (await import(finder)) as { redisServerPath(): string };
  const binary = redisServerPath();
  const cli = join(dirname(binary), 'redis-cli');
  if (!existsSync(cli)) {
    throw new Error(
      `the Redis Cluster tests need redis-cli beside ${binary} (Debian: redis-tools)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'callfold-cluster-'));
  const starting = Array.from({ length: 6 }, () => startNode(binary, dir));
  const started = await Promise.all(starting).catch(async (error: unknown) => {
    for (const node of await Promise.allSettled(starting)) {
      if (node.status === 'fulfilled') node.value.child.kill('SIGKILL');
    }
    throw error;
  });
  const children = () => started.map(({ child }) => child);
  const killAll = () => {
    for (const child of children()) if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const addresses = started.map(({ port }) => `127.0.0.1:${port}`);
  await promisify(execFile)(cli, [
    '--cluster',
    'create',
    ...addresses,
    '--cluster-replicas',
    '1',
    '--cluster-yes',
  ]);
  const admins = new Map<number, Redis>();
  const live = () =>
    started.filter(({ child }) => child.exitCode === null && child.signalCode === null);
  // A connection per node, made again once it has ended (its node was killed, or restarted).
  const admin = (port: number) => {
    let client = admins.get(port);
    if (!client || client.status === 'end') {
      client = new Redis({ host: '127.0.0.1', port, retryStrategy: () => null });
      client.on('error', () => {});
      admins.set(port, client);
    }
    return client;
  };
  const slotsOf = async (port: number) => {
    const ranges = (await admin(port).call('CLUSTER', 'SLOTS')) as [
      number,
      number,
      [string, number],
    ][];
    return ranges
      .map(([from, to, [host, masterPort]]) => `${from}-${to}@${host}:${masterPort}`)
      .sort()
      .join(' ');
  };
  const settled = async () => {
    await waitFor(async () => {
      try {
        const nodes = live();
        const infos = await Promise.all(nodes.map(({ port }) => clusterInfo(admin(port))));
        const ok = infos.every((info) =>
          /cluster_state:ok[\s\S]*cluster_slots_ok:16384/.test(info),
        );
        const views = ok ? await Promise.all(nodes.map(({ port }) => slotsOf(port))) : [];
        const replicas = ok
          ? await Promise.all(nodes.map(({ port }) => admin(port).info('replication')))
          : [];
        // Every replica holds its master's data (synced, linked), or a failover loses it.
        const synced = replicas.every(
          (info) =>
            /role:master/.test(info) ||
            (/master_link_status:up/.test(info) && /master_sync_in_progress:0/.test(info)),
        );
        if (ok && synced && views.every((view) => view === views[0])) return true;
      } catch {
        // A node still starting, or one that just died: asked again.
      }
      // Asked every 50 ms: six nodes' CLUSTER INFO is not free on two shared cores.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return false;
    }, 'every live cluster node reports cluster_state:ok and the same slot masters');
  };
  await settled();
  return {
    nodes: started.map((node) => ({
      host: '127.0.0.1',
      port: node.port,
      kill: async () => {
        const { child } = node;
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
        admin(node.port).disconnect();
      },
      restart: async () => {
        node.child = (await startNode(binary, dir, node)).child;
      },
    })),
    async masterOf(slot: number) {
      const [node] = live();
      const ranges = (await admin(node?.port ?? 0).call('CLUSTER', 'SLOTS')) as [
        number,
        number,
        [string, number],
      ][];
      const range = ranges.find(([from, to]) => from <= slot && slot <= to);
      return range ? `${range[2][0]}:${range[2][1]}` : '';
    },
    settled,
    async stop() {
      for (const client of admins.values()) client.disconnect();
      const exits = children().map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? Promise.resolve()
          : new Promise((resolve) => child.once('exit', resolve)),
      );
      killAll();
      await Promise.all(exits);
      process.removeListener('exit', killAll);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
