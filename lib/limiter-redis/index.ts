export {
  type BatchedDecision,
  Buckets,
  bucketKey,
  DecisionBatcher,
  encodeBatch,
  MAX_BATCH,
  type RedisClient,
  type RedisKey,
} from "./batch";
export { RedisDecider } from "./redis-decider";
export {
  combineRedis,
  RedisCombinedLimiter,
  RedisLimiter,
  type RedisLimiterOptions,
} from "./redis-limiter";
export { DECIDE, DECIDE_SHA } from "./script";
