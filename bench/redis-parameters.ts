/**
 * The Redis benchmark's parameters: bounded in count so the whole run (both implementations,
 * every workload, every round) stays under about two minutes on a 2-core machine.
 */

/** ROUNDS is the number of timed rounds; each runs both implementations, A B then B A. */
export const ROUNDS = 9;
/** LATENCY_CALLS is the number of sequential decisions (one in flight) per latency round. */
export const LATENCY_CALLS = 10_000;
/** THROUGHPUT_CALLS is the number of decisions per throughput round, whatever the concurrency. */
export const THROUGHPUT_CALLS = 10_000;
/** CONCURRENCY lists the numbers of decisions kept in flight in the throughput rounds. */
export const CONCURRENCY: readonly number[] = [1, 16, 64];
/** WARMUP_CALLS is the number of untimed decisions per implementation and workload first. */
export const WARMUP_CALLS = 5_000;
/** ROUND_TRIP_CALLS is the number of decisions per implementation and path counted in INFO. */
export const ROUND_TRIP_CALLS = 1_000;

/** MANY_KEYS is the number of keys the many-keys throughput rounds go through, round robin. */
export const MANY_KEYS = 10_000;
/** HOT_KEY is the one key of the hot workloads. */
export const HOT_KEY = "203.0.113.7";
/** DENIED_KEY is the one key of the denied workloads, drained before timing. */
export const DENIED_KEY = "198.51.100.23";

/** TIMEOUT_MS is Ratekeeper's deadline per decision (ms): the app's (REDIS_TIMEOUT_MS's default). */
export const TIMEOUT_MS = 200;

/** HOT_COUNT per hour never runs dry in this run: the hot limit, for both implementations. */
export const HOT_COUNT = 1_000_000_000;
/** DENIED_COUNT per hour is the denied limit: drained first, then every call is denied. */
export const DENIED_COUNT = 10;
/** PERIOD_S is both limits' period in seconds (RateLimiterRedis `duration`; ours "1h"). */
export const PERIOD_S = 3_600;

/** Impl names an implementation under test. */
export type Impl = "rk" | "rlf";
/** IMPLS lists the implementations; round r runs them in this order if r is even, else reversed. */
export const IMPLS: readonly Impl[] = ["rk", "rlf"];
/** IMPL_NAMES are the implementations' headings. */
export const IMPL_NAMES: Record<Impl, string> = {
  rk: "Ratekeeper RedisLimiter",
  rlf: "RateLimiterRedis",
};

/** orderOf is the order the implementations run in round `round`: A B, B A, A B, ... */
export function orderOf(round: number): readonly Impl[] {
  return round % 2 === 0 ? IMPLS : [...IMPLS].reverse();
}

/** FLOOD_LIMIT is the flooding customer's reads per hour. */
export const FLOOD_LIMIT = 100;
/** FLOOD_REACH_EXTRA is how many requests beyond its limit the customer sends reaching it. */
export const FLOOD_REACH_EXTRA = 1_000;
/** FLOOD_OVER is the number of requests the customer then sends over its limit. */
export const FLOOD_OVER = 10_000;
/** FLOOD_CONCURRENCY is the number of the flood's requests in flight at once. */
export const FLOOD_CONCURRENCY = 64;

/** TARGET_SERVER_CPU is the most redis-server CPU per decision, as a ratio to theirs. */
export const TARGET_SERVER_CPU = 1.0;
/** TARGET_THROUGHPUT is the least throughput at TARGET_THROUGHPUT_AT in flight, as a ratio. */
export const TARGET_THROUGHPUT = 1.2;
/** TARGET_THROUGHPUT_AT lists the concurrencies the throughput target applies to. */
export const TARGET_THROUGHPUT_AT: readonly number[] = [16, 64];
/** TARGET_P99 is the most p99 latency per decision, as a ratio to theirs. */
export const TARGET_P99 = 1.0;
/** TARGET_FLOOD_COMMANDS is the most Redis commands per 1,000 requests refused in the flood. */
export const TARGET_FLOOD_COMMANDS = 10;
