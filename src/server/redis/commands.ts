import type { Cluster, Redis } from 'ioredis';
import { retentionScripts } from './retention.js';
import { scripts } from './scripts.js';

const all = { ...scripts, ...retentionScripts };

export type ScriptName = keyof typeof all;

/** Runs script `name` for the session whose key base is `base` (`P{S}`, its only key). */
export type RunScript = (
  name: ScriptName,
  base: string,
  args: readonly (string | number)[],
) => Promise<unknown>;

/** A client's methods by name, as `defineCommand` adds them. */
type Commands = Record<string, (...args: unknown[]) => Promise<unknown>>;

export const commandName = (name: ScriptName) => `callfold_${name}`;

/**
 * Defines `redisStore`'s scripts on `client` (`defineCommand`): ioredis runs them by SHA
 * and loads them on NOSCRIPT, on a single Redis, in pipelines, and on every node of a
 * cluster, routed by their key. Defining them again (two stores on one client) is harmless.
 */
export function defineScripts(client: Redis | Cluster): RunScript {
  for (const [name, lua] of Object.entries(all)) {
    client.defineCommand(commandName(name as ScriptName), { lua, numberOfKeys: 1 });
  }
  const commands = client as unknown as Commands;
  return (name, base, args) => (commands[commandName(name)] as Commands[string])(base, ...args);
}
