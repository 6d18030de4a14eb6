import type { HandlerMetrics } from './session-store.js';

/** A follower's response as its handler sees it: ended by `close()`, counted by `metrics()`. */
export interface ClosableFollower {
  /** Ends the response after a `retry: <retryMs>` line; resolves once it has ended. */
  close(retryMs: number): Promise<void>;
}

/**
 * The followers of one handler: the responses open now (what `close()` ends) and the
 * counters of `metrics()`. Each `FollowerOutput` reports to it.
 */
export class HandlerFollowers {
  readonly open = new Set<ClosableFollower>();
  bytesSent = 0;
  followersCut = 0;

  metrics(): HandlerMetrics {
    return {
      followers: this.open.size,
      bytesSent: this.bytesSent,
      followersCut: this.followersCut,
    };
  }

  /** Ends every open response, each after its own `retry:` line; resolves once all ended. */
  async close(retryMs: () => number): Promise<void> {
    await Promise.all([...this.open].map((follower) => follower.close(retryMs())));
  }
}
