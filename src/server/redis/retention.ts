/**
 * The retention and life part of `redisStore`'s Lua scripts (see scripts.ts for the keys).
 *
 * Keys added for lives and retention, under P{S}:
 *   P{S}:life      the session's life token (see session-life.ts), given by the first script
 *                  that runs for the session in this life.
 * With `ttlMs`, every script that writes (append, live, renew, a lease settle) and a
 * follow's snapshot set `PEXPIRE ttlMs` on every key of the session, and each instance
 * renews it for the sessions it has followers of; so a session expires, all keys together,
 * once nobody has written to or followed it for ttlMs, leases included.
 */

/**
 * `begin(base, fresh)`: gives the session a life if it has none. A new life of a deleted
 * session (no seq yet) starts on an empty feed: the old feed only held the deletion mark.
 * `touch(base, ttl)`: renews the expiry of every key of the session (ttl 0: none).
 */
export const lifeFunctions = `
local function begin(base, fresh)
  if redis.call('SET', base .. ':life', fresh, 'NX') and redis.call('EXISTS', base .. ':seq') == 0 then
    redis.call('DEL', base .. ':feed')
  end
end
local function touch(base, ttl)
  ttl = tonumber(ttl)
  if ttl <= 0 then return end
  for _, suffix in ipairs({ ':seq', ':log', ':feed', ':attempts', ':leases', ':settled', ':life' }) do
    redis.call('PEXPIRE', base .. suffix, ttl)
  end
  for _, id in ipairs(redis.call('LRANGE', base .. ':attempts', 0, -1)) do
    redis.call('PEXPIRE', base .. ':a:' .. id, ttl)
  end
end
`;

/** ARGV: fresh life, ttlMs. Returns the session's life (given now if it had none). */
const life = `${lifeFunctions}
begin(KEYS[1], ARGV[1])
touch(KEYS[1], ARGV[2])
return redis.call('GET', KEYS[1] .. ':life')
`;

/**
 * ARGV: ttlMs. Renews the expiry of a session followed here. Returns its life ('' for a
 * session that is gone).
 */
const keep = `${lifeFunctions}
touch(KEYS[1], ARGV[1])
return redis.call('GET', KEYS[1] .. ':life') or ''
`;

/**
 * ARGV: feedMax. Removes the session: its keys, its attempts and their leases, its life.
 * The feed keeps one entry, field `d`, for a minute: the instances tailing it read the mark
 * and end their followers (a new life of the id deletes that feed first).
 */
const remove = `
local base = KEYS[1]
for _, id in ipairs(redis.call('LRANGE', base .. ':attempts', 0, -1)) do
  redis.call('DEL', base .. ':a:' .. id)
end
local last = redis.call('GET', base .. ':seq') or '0'
redis.call('DEL', base .. ':seq', base .. ':log', base .. ':attempts', base .. ':leases',
  base .. ':settled', base .. ':life')
if redis.call('EXISTS', base .. ':feed') == 1 then
  redis.call('XADD', base .. ':feed', 'MAXLEN', '~', ARGV[1], last .. '-*', 'd', '1')
  redis.call('PEXPIRE', base .. ':feed', 60000)
end
return 0
`;

/** The retention scripts by command name; each takes one key, the session's base `P{S}`. */
export const retentionScripts = { life, keep, delete: remove } as const;
