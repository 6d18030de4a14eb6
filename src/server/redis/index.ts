/**
 * `callfold/server/redis`: a session store for many server instances on one Redis, through
 * `ioredis` (an optional peer dependency).
 *
 * @module callfold/server/redis
 */
export { type RedisStoreOptions, redisStore } from './redis-store.js';
