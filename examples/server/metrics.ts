/**
 * The store's and the session handler's `metrics()` as Prometheus metrics, with prom-client:
 * each scrape reads one snapshot of each and sets the metrics from it. Gauges for what is
 * held now (sessions, bytes, followers, live attempts); counters (`_total`) for what the store
 * or the handler counted since it was made. `GET /metrics` of examples/server serves
 * `registry.metrics()` to holders of its token.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { HandlerMetrics, StoreMetrics } from '../../src/server/session-store.js';

export interface MetricsSources {
  store(): StoreMetrics;
  handler(): HandlerMetrics;
}

/** A registry whose metrics read `sources` on every scrape. */
export function callfoldRegistry(sources: MetricsSources): Registry {
  const registry = new Registry();
  let store: StoreMetrics | undefined;
  let handler: HandlerMetrics | undefined;
  // prom-client collects the metrics of a scrape one after another: the first one read takes
  // the snapshots, so that every figure of a scrape comes from the same moment.
  const snapshot = () => {
    store = sources.store();
    handler = sources.handler();
  };
  const gauge = (name: string, help: string, read: () => number | undefined, first = false) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        if (first) snapshot();
        const value = read();
        if (value !== undefined) this.set(value);
      },
    });
  const counter = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        // The store counts since it was made: the counter is that count, not an increment.
        this.reset();
        this.inc(read());
      },
    });
  gauge('callfold_store_sessions', 'Sessions the store holds', () => store?.sessions, true);
  gauge(
    'callfold_store_bytes_held',
    'Bytes of durable events held (memoryStore)',
    () => store?.bytesHeld,
  );
  gauge('callfold_store_followers', 'Follows open on the store', () => store?.followers);
  gauge('callfold_store_live_attempts', 'Live attempts', () => store?.liveAttempts);
  counter(
    'callfold_store_leases_expired_total',
    'Attempts settled by their lease running out',
    () => store?.leasesExpired ?? 0,
  );
  counter(
    'callfold_store_evictions_total',
    'Sessions removed by ttlMs, maxSessions or maxBytes',
    () => store?.evictions ?? 0,
  );
  counter(
    'callfold_store_feed_trims_total',
    'Follows sent back to the log because the feed was trimmed past them',
    () => store?.feedTrims ?? 0,
  );
  gauge('callfold_http_followers', 'SSE responses open', () => handler?.followers);
  counter(
    'callfold_http_sent_bytes_total',
    "Bytes handed to followers' connections",
    () => handler?.bytesSent ?? 0,
  );
  counter(
    'callfold_http_followers_cut_total',
    'Followers whose response was ended for being slow',
    () => handler?.followersCut ?? 0,
  );
  return registry;
}
