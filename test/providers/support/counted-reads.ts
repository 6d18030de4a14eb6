/**
 * `value` with every object in it behind a Proxy that counts property reads by path into
 * `reads` (`delta.type`, `choices.0.delta`): how the adapters' tests check that a chunk's
 * fields are read once each.
 */
export function counted(value: unknown, reads: Map<string, number>, path = ''): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const name = `${path}${String(key)}`;
      reads.set(name, (reads.get(name) ?? 0) + 1);
      return counted(Reflect.get(target, key, receiver), reads, `${name}.`);
    },
  });
}
