/**
 * The Lua scripts of `redisStore`. Each runs atomically on the Redis server, so numbering,
 * holding and settling never interleave between instances.
 *
 * Keys of session S under prefix P, all hash-tagged `{S}` so that they share one slot (a
 * script touches one session's keys only, which Redis Cluster requires):
 *   P{S}           KEYS[1] of every script (no key of that name is written): the base the
 *                  script names the others by, and what routes it to the slot's node
 *   P{S}:seq       the last seq given (INCR)
 *   P{S}:log       durable events, stream entry ID `<seq>-0`, field `e` = the event's JSON
 *   P{S}:feed      everything followers tail: durable entries `<seq>-0`, stream events
 *                  `<last seq>-<n>` (so the feed's order is the write order)
 *   P{S}:attempts  live attemptIds in start order (list)
 *   P{S}:a:<id>    the held stream events of a live attempt (list of JSON)
 *   P{S}:leases    the live attempts' lease deadlines (sorted set, score = ms by Redis's clock)
 *   P{S}:settled   attemptIds settled lately (set, expires a day after the last settle)
 *   P{S}:life      the session's life (retention.ts)
 * Expired leases are settled by the session's own scripts (a live write, a follow's
 * snapshot) and by the lease sweep of every instance that has followers of the session.
 * Every script that writes gives the session a life if it has none and, with `ttlMs`,
 * renews the expiry of all its keys (retention.ts).
 */

import { lifeFunctions } from './retention.js';

/**
 * `settle`: drops an attempt's held events, records it, passes it on. `expire`: settles
 * every attempt whose lease has run out; returns how many.
 */
const settleFunctions = `${lifeFunctions}
local function settle(base, id, feedMax, json)
  redis.call('SADD', base .. ':settled', id)
  redis.call('EXPIRE', base .. ':settled', 86400)
  redis.call('DEL', base .. ':a:' .. id)
  redis.call('LREM', base .. ':attempts', 0, id)
  redis.call('ZREM', base .. ':leases', id)
  local last = redis.call('GET', base .. ':seq') or '0'
  redis.call('XADD', base .. ':feed', 'MAXLEN', '~', feedMax, last .. '-*', 'e', json)
end
local function now()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function expire(base, feedMax)
  local expired = redis.call('ZRANGEBYSCORE', base .. ':leases', '-inf', now())
  for _, id in ipairs(expired) do
    settle(base, id, feedMax, cjson.encode({ type = 'stream/settle', attemptId = id }))
  end
  return #expired
end
`;

/**
 * ARGV: feedMax, ttlMs, fresh life, then each event's JSON without seq (an object text).
 * Returns the first seq given.
 */
const append = `${lifeFunctions}
local base = KEYS[1]
begin(base, ARGV[3])
local first = nil
for i = 4, #ARGV do
  local seq = redis.call('INCR', base .. ':seq')
  first = first or seq
  local json = '{"seq":' .. seq .. ',' .. string.sub(ARGV[i], 2)
  redis.call('XADD', base .. ':log', seq .. '-0', 'e', json)
  redis.call('XADD', base .. ':feed', 'MAXLEN', '~', ARGV[1], seq .. '-0', 'e', json)
end
touch(base, ARGV[2])
return first
`;

/**
 * ARGV: feedMax, leaseMs, ttlMs, fresh life, then triples (attemptId, 's' for a settle or
 * 'e', JSON). Settles the expired attempts first. Returns the attemptIds whose events were
 * refused because the attempt had already settled.
 */
const live = `${settleFunctions}
local base, feedMax = KEYS[1], ARGV[1]
begin(base, ARGV[4])
expire(base, feedMax)
local deadline = now() + tonumber(ARGV[2])
local refused = {}
for i = 5, #ARGV, 3 do
  local id, kind, json = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if redis.call('SISMEMBER', base .. ':settled', id) == 1 then
    if kind ~= 's' then table.insert(refused, id) end
  elseif kind == 's' then
    settle(base, id, feedMax, json)
  else
    if redis.call('ZADD', base .. ':leases', deadline, id) == 1 then
      redis.call('RPUSH', base .. ':attempts', id)
    end
    redis.call('RPUSH', base .. ':a:' .. id, json)
    local last = redis.call('GET', base .. ':seq') or '0'
    redis.call('XADD', base .. ':feed', 'MAXLEN', '~', feedMax, last .. '-*', 'e', json)
  end
end
touch(base, ARGV[3])
return refused
`;

/** ARGV: leaseMs, ttlMs, then attemptIds. Extends only live attempts. */
const renew = `${settleFunctions}
local deadline = now() + tonumber(ARGV[1])
for i = 3, #ARGV do
  redis.call('ZADD', KEYS[1] .. ':leases', 'XX', deadline, ARGV[i])
end
touch(KEYS[1], ARGV[2])
return 0
`;

/**
 * ARGV: fresh life, ttlMs, feedMax. Settles the expired attempts, then returns { how many,
 * last seq, last feed ID, life, then every live attempt's held events in start order }:
 * what a new follower starts from, taken at once.
 */
const snapshot = `${settleFunctions}
local base = KEYS[1]
begin(base, ARGV[1])
local expired = expire(base, ARGV[3])
touch(base, ARGV[2])
local last = redis.call('GET', base .. ':seq') or '0'
local tip = redis.call('XREVRANGE', base .. ':feed', '+', '-', 'COUNT', 1)
local id = '0-0'
if #tip > 0 then id = tip[1][1] end
local out = { expired, last, id, redis.call('GET', base .. ':life') }
for _, attempt in ipairs(redis.call('LRANGE', base .. ':attempts', 0, -1)) do
  for _, json in ipairs(redis.call('LRANGE', base .. ':a:' .. attempt, 0, -1)) do
    table.insert(out, json)
  end
end
return out
`;

/**
 * ARGV: feedMax, ttlMs. Settles (for every follower, through the feed) the session's live
 * attempts whose lease has run out. Returns { how many, how many are still live }.
 */
const sweep = `${settleFunctions}
local expired = expire(KEYS[1], ARGV[1])
if expired > 0 then touch(KEYS[1], ARGV[2]) end
return { expired, redis.call('ZCARD', KEYS[1] .. ':leases') }
`;

/** The scripts by command name; each takes one key, the session's base `P{S}`. */
export const scripts = { append, live, renew, snapshot, sweep } as const;
