export { type BucketLevel, BucketTrace, levelAfter, nextTokenInMs } from "./bucket-level";
export {
  Calendar,
  type CalendarSpec,
  EARLIEST_EPOCH_MS,
  type PeriodWindow,
  QUOTA_PERIODS,
  type QuotaPeriod,
} from "./calendar";
export { type Clock, systemClock } from "./clock";
export { type CombinedLimiter, combine } from "./combine";
export { formatPeriod, Limit, limit, type Period, parsePeriod } from "./limit";
export { Limiter, type LimiterOptions } from "./limiter";
export { Quota, type QuotaOptions, quota } from "./quota";
export { checkQuotaState, type QuotaState } from "./quota-store";
export type {
  AnyLimit,
  BucketDetails,
  DebugDetails,
  Details,
  KeyFunc,
  LimitFunc,
  QuotaDetails,
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
