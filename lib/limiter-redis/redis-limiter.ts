import { Cluster } from "ioredis";
import { type Clock, checkQuotaState, Limit, Quota, type QuotaState } from "@/lib/limiter";
import type { AnyLimit, KeyFunc, LimitFunc } from "@/lib/limiter/types";
import { batcherOf, type DecisionBatcher } from "./batch";
import { Buckets, quotaKey, type RedisClient, type RedisKey } from "./buckets";
import { bucketPattern, deleteMatching } from "./keys";
import { QuotaMemory } from "./quota-memory";
import { mergeQuotaState, readQuotaState } from "./quota-state";
import { RedisDecider } from "./redis-decider";

/** RedisLimiterOptions configure a RedisLimiter. */
export interface RedisLimiterOptions {
  /**
   * prefix starts every Redis key of this limiter's buckets ("rk" by default): limiters with
   * different prefixes keep different buckets. It may not contain braces.
   */
  prefix?: string;
  /**
   * clock, when set, supplies the execution time instead of the Redis server's clock (whole
   * milliseconds: readings are rounded down). It is for tests: with it, keys do not expire.
   * With quotas it must read ms since the Unix epoch (a RangeError otherwise); without it, a
   * quota's period is computed at the Redis server's time as this instance estimates it.
   * Deadlines are not read on it: they are real time (see DecisionBatcherOptions.clock).
   */
  clock?: Clock;
  /**
   * timeoutMs is how long a decision waits for Redis (ms; by default as long as it takes): past
   * it the decision rejects with a RedisDeadlineError, and a script run that reaches Redis later
   * takes nothing. Leave the client's own `commandTimeout` unset then: it would give up first.
   */
  timeoutMs?: number;
  /**
   * batcher sends the decisions (by default the client's shared one, `batcherOf`): give one to
   * hear of late replies or to time deadlines on another clock. It must be on the same client.
   */
  batcher?: DecisionBatcher;
}

/** MAX_TIMEOUT_MS is the longest finite timeout a timer can wait for (2^31 - 1 ms, 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** timeoutOf validates a timeout option: a positive number of ms, Infinity when unset. */
function timeoutOf(redis: RedisClient, timeoutMs: number | undefined): number {
  if (timeoutMs === undefined) return Number.POSITIVE_INFINITY;
  if (!(timeoutMs > 0) || (timeoutMs > MAX_TIMEOUT_MS && timeoutMs !== Number.POSITIVE_INFINITY)) {
    throw new RangeError(
      `timeoutMs must be a positive number of ms up to ${MAX_TIMEOUT_MS}, or Infinity, got ${timeoutMs}`,
    );
  }
  const own =
    redis instanceof Cluster
      ? redis.options.redisOptions?.commandTimeout
      : redis.options.commandTimeout;
  if (own !== undefined && timeoutMs !== Number.POSITIVE_INFINITY) {
    throw new TypeError(
      "the Redis client has a commandTimeout, which would give up on a decision before its deadline: leave it unset and let timeoutMs time the decisions",
    );
  }
  return timeoutMs;
}

/**
 * RedisLimiter is the Limiter of `lib/limiter` with its buckets and quota states in Redis,
 * shared by every process that uses the same Redis and prefix. Its methods return Promises; the semantics are
 * the in-memory limiter's, decided at the Redis server's time.
 */
export class RedisLimiter<I> extends RedisDecider<I> {
  readonly redis: RedisClient;
  readonly clock: Clock | undefined;
  readonly batcher: DecisionBatcher;
  readonly timeoutMs: number;
  readonly prefix: string;
  /**
   * quotaMemory is the last count this limiter saw of each quota key (bounded): a decision seeds
   * a key Redis lost with it, and a stand-in can start from it during an outage.
   */
  readonly quotaMemory = new QuotaMemory();
  private readonly keyFunc: KeyFunc<I, RedisKey>;
  private readonly staticLimits: Limit[];
  private readonly staticQuotas: Quota[];
  private readonly limitFuncs: LimitFunc<I>[];

  constructor(
    redis: RedisClient,
    keyFunc: KeyFunc<I, RedisKey>,
    limitsAndLimitFuncs: AnyLimit | LimitFunc<I> | ReadonlyArray<AnyLimit | LimitFunc<I>> = [],
    options: RedisLimiterOptions = {},
  ) {
    super();
    if (typeof keyFunc !== "function") throw new TypeError("keyFunc must be a function");
    const prefix = options.prefix ?? "rk";
    if (prefix === "" || /[{}]/.test(prefix)) {
      throw new RangeError(`prefix must be a non-empty string without braces, got "${prefix}"`);
    }
    this.redis = redis;
    this.clock = options.clock;
    this.timeoutMs = timeoutOf(redis, options.timeoutMs);
    this.batcher = options.batcher ?? batcherOf(redis);
    if (this.batcher.redis !== redis) {
      throw new TypeError("a Redis limiter's batcher must be on the limiter's client");
    }
    this.prefix = prefix;
    this.keyFunc = keyFunc;
    const items = Array.isArray(limitsAndLimitFuncs)
      ? (limitsAndLimitFuncs as ReadonlyArray<AnyLimit | LimitFunc<I>>)
      : [limitsAndLimitFuncs as AnyLimit | LimitFunc<I>];
    this.staticLimits = [];
    this.staticQuotas = [];
    this.limitFuncs = [];
    for (const item of items) {
      if (item instanceof Limit) {
        if (!this.staticLimits.some((l) => l.id === item.id)) this.staticLimits.push(item);
      } else if (item instanceof Quota) {
        this.staticQuotas.push(item);
      } else if (typeof item === "function") {
        this.limitFuncs.push(item);
      } else {
        throw new TypeError("limitsAndLimitFuncs must hold Limits, Quotas and limit funcs only");
      }
    }
  }

  /** @internal Lists this limiter's buckets for `input`. */
  gatherInto(input: I, into: Buckets): void {
    const key = this.keyFunc(input);
    if (typeof key !== "string" && typeof key !== "number") {
      throw new TypeError(`a Redis limiter's key func must return a string or a number`);
    }
    for (const limit of this.staticLimits) into.add(this.prefix, limit, key);
    for (const quota of this.staticQuotas) into.addQuota(this.prefix, quota, key, this.quotaMemory);
    for (const limitFunc of this.limitFuncs) {
      const result = limitFunc(input);
      if (result == null) continue;
      for (const item of Array.isArray(result) ? (result as readonly unknown[]) : [result]) {
        if (item instanceof Limit) into.add(this.prefix, item, key);
        else if (item instanceof Quota) into.addQuota(this.prefix, item, key, this.quotaMemory);
        else {
          throw new TypeError(
            "a limit func must return a Limit, a Quota, an array of them, or nothing",
          );
        }
      }
    }
  }

  /**
   * quotaState reads the state of `key` under `quota`'s calendar as Redis holds it (the
   * period's start, ms since the epoch, and the tokens used then), or null when it holds none.
   */
  quotaState(key: RedisKey, quota: Quota): Promise<QuotaState<RedisKey> | null> {
    return readQuotaState(this.redis, quotaKey(this.prefix, key, quota), key, quota);
  }

  /**
   * restoreQuota merges a saved quota state into Redis, in one script run, for a `quota` of its
   * calendar (else a RangeError): ignored when of a period before the current one (by this
   * limiter's time: its clock, or Redis's as estimated); for the period Redis holds, the larger
   * used count wins; written when Redis holds none, or an older period's (expiring a day after
   * its period, on Redis's clock only; remembered as the key's count, to seed it should Redis
   * lose it). It reports whether it changed anything.
   */
  async restoreQuota(quota: Quota, state: QuotaState<RedisKey>): Promise<boolean> {
    checkQuotaState(quota, state);
    const buckets = new Buckets();
    buckets.addQuota(this.prefix, quota, state.key, this.quotaMemory);
    const now = this.clock ? Math.floor(this.clock.now()) : await this.batcher.redisTime(buckets);
    const redisKey = buckets.quotaRedisKeys[0] as string;
    const changed = await mergeQuotaState(
      this.redis,
      redisKey,
      quota,
      state,
      now,
      this.clock === undefined,
    );
    if (changed) this.quotaMemory.raise(redisKey, quota, state.key, state.startMs, state.used);
    return changed;
  }

  /**
   * forget deletes every bucket of `key`, under every limit, and its quota states (in Redis and
   * in this limiter's memory), and returns how many it deleted: the key starts again from full
   * buckets and unused quotas.
   */
  forget(key: RedisKey): Promise<number> {
    this.quotaMemory.forget(key);
    // A bucket of this key has only a limit id after the head: no "}" (that of a longer key).
    const head = `${this.prefix}:{${key}}:`;
    return deleteMatching(
      this.redis,
      bucketPattern(this.prefix, key),
      (redisKey) => !redisKey.slice(head.length).includes("}"),
    );
  }

  /**
   * forgetBuckets deletes every bucket of `key`, under every limit, keeping its quota states
   * (`…:q:<calendarId>`), and returns how many it deleted.
   */
  forgetBuckets(key: RedisKey): Promise<number> {
    const head = `${this.prefix}:{${key}}:`;
    return deleteMatching(this.redis, bucketPattern(this.prefix, key), (redisKey) => {
      const rest = redisKey.slice(head.length);
      return !rest.includes("}") && !rest.startsWith("q:");
    });
  }

  /** clear deletes every bucket and quota state under this limiter's prefix (and its memory). */
  async clear(): Promise<void> {
    this.quotaMemory.clear();
    await deleteMatching(this.redis, bucketPattern(this.prefix));
  }
}

/**
 * RedisCombinedLimiter is a stack of Redis limiters on one client with one all-or-nothing
 * decision across all of them, in one script.
 */
export class RedisCombinedLimiter<I> extends RedisDecider<I> {
  readonly redis: RedisClient;
  readonly clock: Clock | undefined;
  readonly batcher: DecisionBatcher;
  /** timeoutMs is the shortest of the limiters' timeouts. */
  readonly timeoutMs: number;
  private readonly limiters: readonly RedisLimiter<I>[];

  constructor(redis: RedisClient, limiters: readonly RedisLimiter<I>[]) {
    super();
    this.limiters = [...new Set(limiters)];
    if (this.limiters.some((l) => l.redis !== redis)) {
      throw new TypeError("combined Redis limiters must share one Redis client");
    }
    this.redis = redis;
    this.clock = this.limiters[0]?.clock;
    this.batcher = this.limiters[0]?.batcher ?? batcherOf(redis);
    if (this.limiters.some((l) => l.batcher !== this.batcher)) {
      throw new TypeError("combined Redis limiters must share one batcher");
    }
    this.timeoutMs = Math.min(...this.limiters.map((l) => l.timeoutMs));
  }

  /** @internal Lists every limiter's buckets, in order. */
  gatherInto(input: I, into: Buckets): void {
    for (const limiter of this.limiters) limiter.gatherInto(input, into);
  }
}

/**
 * combineRedis stacks Redis limiters into one: a decision takes tokens from every bucket of
 * every limiter, or from none, in one script run. On Redis Cluster, the limiters of a
 * combination must share their key func (one hash tag per decision).
 */
export function combineRedis<I>(
  first: RedisLimiter<I>,
  ...rest: RedisLimiter<I>[]
): RedisCombinedLimiter<I> {
  return new RedisCombinedLimiter(first.redis, [first, ...rest]);
}
