export { type RedisStoreOptions, redisStore } from './redis-store.js';
