import { type StoreClock, unrefTimer } from '../store-clock.js';
import { keepScript } from './retention.js';

/** Runs one of `redisStore`'s Lua scripts. */
export type RunScript = (
  lua: string,
  keys: readonly string[],
  args: readonly (string | number)[],
) => Promise<unknown>;

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
 * must not expire, so every ttlMs / 3 (three tries per ttlMs) one script renews the expiry of
 * every key of each session followed here and returns their lives; a session whose life
 * changed was deleted meanwhile, and its followers here end.
 */
export class SessionKeeper {
  readonly #ttlMs: number | undefined;
  readonly #clock: StoreClock;
  readonly #run: RunScript;
  readonly #followed: () => readonly FollowedSession[];
  #timer: unknown;
  #closed = false;

  constructor(
    ttlMs: number | undefined,
    clock: StoreClock,
    run: RunScript,
    followed: () => readonly FollowedSession[],
  ) {
    if (ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) {
      throw new RangeError(`ttlMs must be a positive number, got ${ttlMs}`);
    }
    this.#ttlMs = ttlMs;
    this.#clock = clock;
    this.#run = run;
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
        const bases = sessions.map((session) => session.base);
        const lives = (await this.#run(keepScript, [], [ttlMs, ...bases])) as string[];
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
