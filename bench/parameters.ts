/**
 * The limiter benchmark's parameters and names: bounded so the whole run stays well under two
 * minutes on a 2-core machine.
 */

/** SYNC_OPS is the number of calls per timed round for the synchronous limiters. */
export const SYNC_OPS = 1_000_000;
/** ASYNC_OPS is the number of calls per timed round for RateLimiterMemory (a promise per call). */
export const ASYNC_OPS = 100_000;
/** WARMUP_ROUNDS is the number of untimed rounds run before the timed ones. */
export const WARMUP_ROUNDS = 2;
/** TIMED_ROUNDS is the number of timed rounds; the tables report their median. */
export const TIMED_ROUNDS = 7;
/** MANY_KEYS is the number of distinct keys touched once each for first touch and heap. */
export const MANY_KEYS = 1_000_000;
/** MANY_KEYS_ROUNDS is the number of timed rounds over the MANY_KEYS keys. */
export const MANY_KEYS_ROUNDS = 3;
/** MANY_KEYS_WARMUP is the number of distinct keys each implementation touches to warm up. */
export const MANY_KEYS_WARMUP = 20_000;
/** PROBE_OPS is the number of calls per allocation probe: small enough that no GC runs. */
export const PROBE_OPS = 20_000;

/** HOT_KEY is the one key the hot-key workloads call with. */
export const HOT_KEY = "203.0.113.7";
/** DENIED_KEY is the one key the denied workloads call with, drained before timing. */
export const DENIED_KEY = "198.51.100.23";

// Limits. Hot: 100,000,000 per second never runs dry at a few tens of millions of calls per
// second. Second hot limit: 1,000,000,000 per minute. Denied: 10 per hour, drained first.
// Many keys: 10 per hour per key (long enough that no library expires a key mid-measurement).

/** HOT_COUNT is the hot limit's token count per HOT_PERIOD_MS. */
export const HOT_COUNT = 100_000_000;
/** HOT_PERIOD_MS is the hot limit's period, in ms. */
export const HOT_PERIOD_MS = 1_000;
/** HOT2_COUNT is the second hot limit's token count per HOT2_PERIOD_MS. */
export const HOT2_COUNT = 1_000_000_000;
/** HOT2_PERIOD_MS is the second hot limit's period, in ms. */
export const HOT2_PERIOD_MS = 60_000;
/** DENIED_COUNT is the denied limit's token count per DENIED_PERIOD_MS. */
export const DENIED_COUNT = 10;
/** DENIED_PERIOD_MS is the denied limit's period, in ms. */
export const DENIED_PERIOD_MS = 3_600_000;
/** MANY_COUNT is the per-key token count per MANY_PERIOD_MS in the many-keys workload. */
export const MANY_COUNT = 10;
/** MANY_PERIOD_MS is the per-key period of the many-keys workload, in ms. */
export const MANY_PERIOD_MS = 3_600_000;

/** Impl names an implementation under test. */
export type Impl = "floor" | "ratekeeper" | "tokenBucket" | "rlm";
/** Workload names a workload; every implementation runs every one. */
export type Workload = "hot1" | "hot2" | "denied" | "firstTouch";
/** HotWorkload is a workload on one key, timed by a loop per implementation. */
export type HotWorkload = Exclude<Workload, "firstTouch">;

/** IMPLS lists the implementations in the order they run and appear in the tables. */
export const IMPLS: readonly Impl[] = ["floor", "ratekeeper", "tokenBucket", "rlm"];
/** IMPL_NAMES are the implementations' column headings. */
export const IMPL_NAMES: Record<Impl, string> = {
  floor: "Map floor",
  ratekeeper: "Ratekeeper",
  tokenBucket: "limiter TokenBucket",
  rlm: "RateLimiterMemory",
};
/** WORKLOADS lists the workloads in the order of the tables' rows. */
export const WORKLOADS: readonly Workload[] = ["hot1", "hot2", "denied", "firstTouch"];
/** WORKLOAD_NAMES are the workloads' row headings. */
export const WORKLOAD_NAMES: Record<Workload, string> = {
  hot1: "hot key, 1 limit, allowed",
  hot2: "hot key, 2 limits, allowed",
  denied: "hot key, denied",
  firstTouch: "1M distinct keys, first touch",
};
