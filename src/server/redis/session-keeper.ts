import { type StoreClock, unrefTimer } from '../store-clock.js';

/** Renews the expiry of the session whose key base is `base`; resolves with its life ('' if gone). */
export type Keep = (base: string) => Promise<string>;

/** A session this instance has followers of, as the keeper sees it. */
export interface FollowedSession {
  /** The session's key base, `P{S}`. */
  readonly base: string;
  /** Its life at the tail's first snapshot. */
  readonly life: string;
  /** The session was deleted (its life changed or is gone): end its followers here. */
  stale(): void;
}

/**
 * The follower half of `redisStore`'s `ttlMs`: a session with followers on this instance
 * must not expire, so every ttlMs / 3 (three tries per ttlMs) a script for each session
 * followed here renews the expiry of its keys and returns its life (one script per session:
 * a cluster spreads them over its nodes); a session whose life changed was deleted
 * meanwhile, and its followers here end.
 */
export class SessionKeeper {
  readonly #ttlMs: number | undefined;
  readonly #clock: StoreClock;
  readonly #keep: Keep;
  readonly #followed: () => readonly FollowedSession[];
  #timer: unknown;
  #closed = false;

  constructor(
    ttlMs: number | undefined,
    clock: StoreClock,
    keep: Keep,
    followed: () => readonly FollowedSession[],
  ) {
    if (ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) {
      throw new RangeError(`ttlMs must be a positive number, got ${ttlMs}`);
    }
    this.#ttlMs = ttlMs;
    this.#clock = clock;
    this.#keep = keep;
    this.#followed = followed;
    this.#arm();
  }

  #arm(): void {
    const ttlMs = this.#ttlMs;
    if (ttlMs === undefined || this.#closed) return;
    this.#timer = this.#clock.setTimeout(async () => {
      try {
        const sessions = this.#followed();
        if (sessions.length === 0) return;
        const lives = await Promise.all(sessions.map((session) => this.#keep(session.base)));
        sessions.forEach((session, i) => {
          if (lives[i] !== session.life) session.stale();
        });
      } catch {
        // Renewed at the next round: a session lives three rounds.
      } finally {
        this.#arm();
      }
    }, ttlMs / 3);
    unrefTimer(this.#timer);
  }

  close(): void {
    this.#closed = true;
    this.#clock.clearTimeout(this.#timer);
  }
}
