export { type BucketLevel, BucketTrace, levelAfter, nextTokenInMs } from "./bucket-level";
export { type Clock, systemClock } from "./clock";
export { type CombinedLimiter, combine } from "./combine";
export { formatPeriod, Limit, limit, type Period, parsePeriod } from "./limit";
export { Limiter, type LimiterOptions } from "./limiter";
export type {
  BucketDetails,
  DebugDetails,
  Details,
  KeyFunc,
  LimitFunc,
  WaitOptions,
} from "./types";
export {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
  TIME_UNITS,
  type TimeUnit,
  type TimeUnitEntry,
  timeUnit,
} from "./units";
