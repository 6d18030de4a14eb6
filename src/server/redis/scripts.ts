/**
 * The Lua scripts of `redisStore`. Each runs atomically on the Redis server, so numbering,
 * holding and settling never interleave between instances.
 *
 * Keys of session S under prefix P:
 *   P{S}:seq       the last seq given (INCR)
 *   P{S}:log       durable events, stream entry ID `<seq>-0`, field `e` = the event's JSON
 *   P{S}:feed      everything followers tail: durable entries `<seq>-0`, stream events
 *                  `<last seq>-<n>` (so the feed's order is the write order)
 *   P{S}:attempts  live attemptIds in start order (list)
 *   P{S}:a:<id>    the held stream events of a live attempt (list of JSON)
 *   P{S}:settled   attemptIds settled lately (set, expires a day after the last settle)
 *   Pleases        every live attempt of every session: member `S <id>`, score = deadline ms
 *   P{S}:life      the session's life (retention.ts)
 * The attempt lists and the session keys a lease sweep settles are named inside the
 * scripts, so this layout needs one Redis (or a primary with replicas), not Redis Cluster.
 * Every script that writes gives the session a life if it has none and, with `ttlMs`,
 * renews the expiry of all its keys (retention.ts).
 */

import { lifeFunctions } from './retention.js';

/** A settle, shared by `live` and `sweep`: drop the held events, record it, pass it on. */
const settleFunction = `${lifeFunctions}
local function settle(base, session, id, feedMax, leases, json)
  redis.call('SADD', base .. ':settled', id)
  redis.call('EXPIRE', base .. ':settled', 86400)
  redis.call('DEL', base .. ':a:' .. id)
  redis.call('LREM', base .. ':attempts', 0, id)
  redis.call('ZREM', leases, session .. ' ' .. id)
  local last = redis.call('GET', base .. ':seq') or '0'
  redis.call('XADD', base .. ':feed', 'MAXLEN', '~', feedMax, last .. '-*', 'e', json)
end
local function now()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
`;

/**
 * KEYS: seq, log, feed. ARGV: feedMax, ttlMs, base, fresh life, then each event's JSON
 * without seq (an object text). Returns the first seq given.
 */
export const appendScript = `${lifeFunctions}
begin(ARGV[3], ARGV[4])
local first = nil
for i = 5, #ARGV do
  local seq = redis.call('INCR', KEYS[1])
  first = first or seq
  local json = '{"seq":' .. seq .. ',' .. string.sub(ARGV[i], 2)
  redis.call('XADD', KEYS[2], seq .. '-0', 'e', json)
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[1], seq .. '-0', 'e', json)
end
touch(ARGV[3], ARGV[2])
return first
`;

/**
 * KEYS: leases. ARGV: base (P{S}), session, feedMax, leaseMs, ttlMs, fresh life, then
 * triples (attemptId, 's' for a settle or 'e', JSON). Returns the attemptIds whose events
 * were refused because the attempt had already settled.
 */
export const liveScript = `${settleFunction}
local base, session, feedMax, leaseMs = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
begin(base, ARGV[6])
local deadline = now() + leaseMs
local refused = {}
for i = 7, #ARGV, 3 do
  local id, kind, json = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if redis.call('SISMEMBER', base .. ':settled', id) == 1 then
    if kind ~= 's' then table.insert(refused, id) end
  elseif kind == 's' then
    settle(base, session, id, feedMax, KEYS[1], json)
  else
    if redis.call('ZADD', KEYS[1], deadline, session .. ' ' .. id) == 1 then
      redis.call('RPUSH', base .. ':attempts', id)
    end
    redis.call('RPUSH', base .. ':a:' .. id, json)
    local last = redis.call('GET', base .. ':seq') or '0'
    redis.call('XADD', base .. ':feed', 'MAXLEN', '~', feedMax, last .. '-*', 'e', json)
  end
end
touch(base, ARGV[5])
return refused
`;

/** KEYS: leases. ARGV: session, leaseMs, base, ttlMs, then attemptIds. Extends only live attempts. */
export const renewScript = `${settleFunction}
local deadline = now() + tonumber(ARGV[2])
for i = 5, #ARGV do
  redis.call('ZADD', KEYS[1], 'XX', deadline, ARGV[1] .. ' ' .. ARGV[i])
end
touch(ARGV[3], ARGV[4])
return 0
`;

/**
 * KEYS: seq, feed, attempts. ARGV: base, fresh life, ttlMs. Returns { last seq, last feed ID,
 * life, then every live attempt's held events in start order }: what a new follower starts
 * from, taken at once.
 */
export const snapshotScript = `${lifeFunctions}
begin(ARGV[1], ARGV[2])
touch(ARGV[1], ARGV[3])
local last = redis.call('GET', KEYS[1]) or '0'
local tip = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
local id = '0-0'
if #tip > 0 then id = tip[1][1] end
local out = { last, id, redis.call('GET', ARGV[1] .. ':life') }
for _, attempt in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
  for _, json in ipairs(redis.call('LRANGE', ARGV[1] .. ':a:' .. attempt, 0, -1)) do
    table.insert(out, json)
  end
end
return out
`;

/**
 * KEYS: leases. ARGV: prefix, feedMax, limit, ttlMs. Settles (for every follower, through the feed)
 * the live attempts whose lease has run out. Returns how many.
 */
export const sweepScript = `${settleFunction}
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now(), 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(expired) do
  local space = string.find(member, ' ', 1, true)
  local session = string.sub(member, 1, space - 1)
  local id = string.sub(member, space + 1)
  local json = cjson.encode({ type = 'stream/settle', attemptId = id })
  settle(ARGV[1] .. '{' .. session .. '}', session, id, ARGV[2], KEYS[1], json)
  touch(ARGV[1] .. '{' .. session .. '}', ARGV[4])
end
return #expired
`;
