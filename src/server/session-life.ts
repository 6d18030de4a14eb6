/**
 * A session's life: the token a store gives a session id when it is first used, and a new
 * one after the session is deleted (by `delete` or `ttlMs`). The handler writes it into each
 * durable event's SSE `id:` (`<seq>-<life>`), so a client that resumes with an ID from an
 * earlier life of the same session id is told (410), never resumed inside the new one.
 * See docs/decisions/0015-session-retention-and-lives.md.
 */

/** The Web Crypto global of Node >= 20, Deno, Bun and browsers (src/ compiles without the DOM). */
interface WebCrypto {
  readonly crypto: { getRandomValues(bytes: Uint8Array): Uint8Array };
}

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
const lifePattern = /^[a-z0-9]{1,32}$/;
const lifeIdPattern = /^(\d{1,16})-([a-z0-9]{1,32})$/;

/** A fresh life token: 12 random characters of `[a-z0-9]` (62 bits). */
export function newLife(): string {
  const bytes = new Uint8Array(12);
  (globalThis as unknown as WebCrypto).crypto.getRandomValues(bytes);
  let life = '';
  for (const byte of bytes) life += alphabet[byte % alphabet.length];
  return life;
}

/** Whether `value` is a life token as `newLife` makes them. */
export function isLife(value: unknown): value is string {
  return typeof value === 'string' && lifePattern.test(value);
}

/**
 * A resumption point from `Last-Event-ID`: `<seq>-<life>` as the handler writes it, or a bare
 * seq (clients from before lives, and `lastEventId: String(seq)` after `loadHistory`), which
 * resumes without a check of the life. Undefined when it is neither.
 */
export function parseResumeId(
  header: string | null | undefined,
): { readonly seq: number; readonly life?: string } | undefined {
  if (header === null || header === undefined) return undefined;
  const match = lifeIdPattern.exec(header.trim());
  if (match) return { seq: Number(match[1]), life: match[2] as string };
  if (header.trim() === '') return undefined;
  const seq = Number(header);
  return Number.isFinite(seq) ? { seq } : undefined;
}
