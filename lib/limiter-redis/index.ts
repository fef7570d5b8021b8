export {
  Buckets,
  bucketKey,
  combineRedis,
  type RedisClient,
  RedisCombinedLimiter,
  RedisDecider,
  type RedisKey,
  RedisLimiter,
  type RedisLimiterOptions,
} from "./redis-limiter";
export { DECIDE, DECIDE_SHA } from "./script";
