export { batcherOf, DecisionBatcher, type DecisionBatcherOptions, MAX_BATCH } from "./batch";
export { Buckets, bucketKey, quotaKey, type RedisClient, type RedisKey } from "./buckets";
export {
  ClockOffset,
  type DeadlineWindow,
  DRIFT_PER_MS,
  deadlineWindow,
  MAX_OFFSET_ERROR_MS,
  type OffsetEstimate,
} from "./clock-offset";
export { type BatchedDecision, encodeBatch } from "./encode-batch";
export { type QuotaFloor, raiseQuotas } from "./quota-floors";
export { QuotaMemory } from "./quota-memory";
export { QUOTA_SHIFT, RESTORE_QUOTA } from "./quota-script";
export { RedisDecider } from "./redis-decider";
export {
  combineRedis,
  RedisCombinedLimiter,
  RedisLimiter,
  type RedisLimiterOptions,
} from "./redis-limiter";
export { DECIDE, DECIDE_SHA, EXPIRED } from "./script";
export { isDecisionCommand } from "./script-runner";
export {
  type OnUnanswered,
  RedisDeadlineError,
  UNANSWERED_OUTCOMES,
  type UnansweredOutcome,
} from "./unanswered";
