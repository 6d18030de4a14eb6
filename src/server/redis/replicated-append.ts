import type { Redis } from 'ioredis';
import { defineScripts, type RunScript } from './commands.js';
import type { RedisTopology } from './tail-set.js';

/** The scripts on each master's own connection. */
const onMaster = new WeakMap<Redis, RunScript>();

/**
 * `durability: 'replicated'`: the append script, then `WAIT 1 <timeoutMs>`, both on the
 * connection to the session's master (not through the cluster client's routing), so that
 * WAIT counts the replicas that have this append. Resolves with the first seq given. None
 * within the timeout: the append is on the master but not known to be on a replica, and
 * this rejects saying so.
 */
export async function appendReplicated(
  topology: RedisTopology,
  sessionId: string,
  base: string,
  args: readonly (string | number)[],
  count: number,
  timeoutMs: number,
): Promise<number> {
  const master = await topology.master(base);
  let run = onMaster.get(master);
  if (!run) {
    run = defineScripts(master);
    onMaster.set(master, run);
  }
  let first: number;
  let replicas: number;
  try {
    first = Number(await run('append', base, args));
    replicas = Number(await master.call('WAIT', 1, timeoutMs));
  } catch (error) {
    // The slot moved or its master failed: the next append asks where it is now.
    topology.refresh();
    throw error;
  }
  if (replicas >= 1) return first;
  throw new Error(
    `redisStore: the append to session ${sessionId} (seq ${first}–${first + count - 1}) is ` +
      `on the master but no replica confirmed it within ${timeoutMs} ms (WAIT returned 0); ` +
      'it is lost if the master fails before it replicates',
  );
}
