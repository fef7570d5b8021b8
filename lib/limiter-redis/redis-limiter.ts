import { Cluster, type Redis } from "ioredis";
import { type Clock, Limit } from "@/lib/limiter";
import { assertTokens } from "@/lib/limiter/decider";
import type {
  BucketDetails,
  DebugDetails,
  Details,
  KeyFunc,
  LimitFunc,
  WaitOptions,
} from "@/lib/limiter/types";
import { waitUntilAllowed } from "@/lib/limiter/wait";
import { DECIDE, DECIDE_SHA } from "./script";

/**
 * RedisClient is the connection the limiter runs its script on: one Redis server (or a primary
 * with replicas), or a Redis Cluster.
 */
export type RedisClient = Redis | Cluster;

/** RedisKey is what a key func of the Redis limiter may return: it becomes part of a Redis key. */
export type RedisKey = string | number;

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
   */
  clock?: Clock;
}

/**
 * Buckets is a decision's working set: each bucket's limit, key and Redis key. Equal limits of
 * the same limiter for the same key appear once.
 */
export class Buckets {
  readonly limits: Limit[] = [];
  readonly keys: RedisKey[] = [];
  readonly redisKeys: string[] = [];

  get length(): number {
    return this.limits.length;
  }

  add(prefix: string, limit: Limit, key: RedisKey): void {
    const redisKey = bucketKey(prefix, key, limit);
    if (this.redisKeys.includes(redisKey)) return;
    this.limits.push(limit);
    this.keys.push(key);
    this.redisKeys.push(redisKey);
  }

  /** push appends the `i`-th bucket of `other` as it is. */
  push(other: Buckets, i: number): void {
    this.limits.push(other.limits[i] as Limit);
    this.keys.push(other.keys[i] as RedisKey);
    this.redisKeys.push(other.redisKeys[i] as string);
  }
}

/**
 * bucketKey names one bucket in Redis: `<prefix>:{<key>}:<count>/<periodMs>`. The braces make
 * the key a Redis Cluster hash tag, so every bucket of one key lives in one slot and a decision
 * over them runs as one script.
 */
export function bucketKey(prefix: string, key: RedisKey, limit: Limit): string {
  return `${prefix}:{${key}}:${limit.id}`;
}

/**
 * The glob pattern that matches every bucket of `key` (or, without a key, of the prefix). With
 * a key it also matches keys that continue it with "}:" (key "a" matches "rk:{a}:x}:1/1" of key
 * "a}:x"): `forget` filters those out. Without one, the "{" stops prefix "rk" matching "rk:x".
 */
function bucketPattern(prefix: string, key?: RedisKey): string {
  const glob = (text: string) => text.replace(/[*?[\]\\]/g, "\\$&");
  return key === undefined ? `${glob(prefix)}:{*` : `${glob(prefix)}:{${glob(String(key))}}:*`;
}

/** tokensOf is the whole number of tokens in `available` units (none when it is negative). */
function tokensOf(available: number, limit: Limit): number {
  if (available <= 0) return 0;
  return (available - (available % limit.tokenUnits)) / limit.tokenUnits;
}

/**
 * retryOf converts the units still missing into milliseconds, rounded up by a float's last bits
 * so that `need / scale` milliseconds later the units are there.
 */
function retryOf(need: number, scale: number): number {
  let retry = need / scale;
  let step = retry * Number.EPSILON;
  while (retry * scale < need) {
    retry += step;
    step *= 2;
  }
  return retry;
}

/**
 * RedisDecider implements the Limiter method set, asynchronously, over buckets kept in Redis:
 * every decision, however many limits and limiters it spans, is one script run, one round trip.
 */
export abstract class RedisDecider<I> {
  /** redis is the client the script runs on. */
  abstract readonly redis: RedisClient;
  /** clock is the injected clock, if any; without one the Redis server's clock decides. */
  abstract readonly clock: Clock | undefined;

  /** @internal Lists the input's buckets into `into`, in order: limiter, then limit. */
  abstract gatherInto(input: I, into: Buckets): void;

  /** allow takes one token from every bucket of the input, or none; true when it took them. */
  async allow(input: I): Promise<boolean> {
    return (await this.decide(input, 1, true, false)).allowed;
  }

  /** allowN takes `n` tokens from every bucket of the input, or none. */
  async allowN(input: I, n: number): Promise<boolean> {
    return (await this.decide(input, n, true, false)).allowed;
  }

  /** allowWithDetails is `allow` reporting the decision's Details. */
  allowWithDetails(input: I): Promise<Details> {
    return this.decide(input, 1, true, false);
  }

  /** allowNWithDetails is `allowN` reporting the decision's Details. */
  allowNWithDetails(input: I, n: number): Promise<Details> {
    return this.decide(input, n, true, false);
  }

  /** allowWithDebug is `allow` reporting Details and each bucket's. */
  allowWithDebug(input: I): Promise<DebugDetails<RedisKey>> {
    return this.decide(input, 1, true, true) as Promise<DebugDetails<RedisKey>>;
  }

  /** allowNWithDebug is `allowN` reporting Details and each bucket's. */
  allowNWithDebug(input: I, n: number): Promise<DebugDetails<RedisKey>> {
    return this.decide(input, n, true, true) as Promise<DebugDetails<RedisKey>>;
  }

  /** peek reports whether `allow` would succeed now, consuming nothing and creating no bucket. */
  async peek(input: I): Promise<boolean> {
    return (await this.decide(input, 1, false, false)).allowed;
  }

  /** peekN reports whether `allowN` would succeed now, consuming nothing and creating no bucket. */
  async peekN(input: I, n: number): Promise<boolean> {
    return (await this.decide(input, n, false, false)).allowed;
  }

  /** peekWithDetails is `peek` with Details: `tokensConsumed` is 0. */
  peekWithDetails(input: I): Promise<Details> {
    return this.decide(input, 1, false, false);
  }

  /** peekNWithDetails is `peekN` with Details. */
  peekNWithDetails(input: I, n: number): Promise<Details> {
    return this.decide(input, n, false, false);
  }

  /** peekWithDebug is `peek` with Details and each bucket's. */
  peekWithDebug(input: I): Promise<DebugDetails<RedisKey>> {
    return this.decide(input, 1, false, true) as Promise<DebugDetails<RedisKey>>;
  }

  /** peekNWithDebug is `peekN` with Details and each bucket's. */
  peekNWithDebug(input: I, n: number): Promise<DebugDetails<RedisKey>> {
    return this.decide(input, n, false, true) as Promise<DebugDetails<RedisKey>>;
  }

  /** wait resolves with the Details of the first allowed `allow`; see `waitN`. */
  wait(input: I, options?: WaitOptions): Promise<Details> {
    return this.waitN(input, 1, options);
  }

  /**
   * waitN retries `allowN` after each retry-after until it is allowed and resolves with its
   * Details. It rejects with the signal's reason when `options.signal` aborts, and with a
   * RangeError when `n` exceeds a limit's count (it could never pass).
   */
  async waitN(input: I, n: number, options?: WaitOptions): Promise<Details> {
    assertTokens(n);
    return waitUntilAllowed(() => this.allowNWithDetails(input, n), n, this.clock, options?.signal);
  }

  /**
   * allowNWithShadow is `allowNWithDebug` for `input`, plus a shadow decision over the buckets
   * of `shadowInput` (dry-run limits) in the same script, the same round trip: the shadow is
   * evaluated only when the decision allows, takes its `n` tokens only if every shadow bucket has
   * them, and never changes the decision. `shadow` is null when it was not evaluated (the
   * decision refused, or `shadowInput` names no bucket beyond the decision's own).
   */
  async allowNWithShadow(
    input: I,
    n: number,
    shadowInput: I,
  ): Promise<{ details: DebugDetails<RedisKey>; shadow: DebugDetails<RedisKey> | null }> {
    assertTokens(n);
    const buckets = new Buckets();
    this.gatherInto(input, buckets);
    const shadow = new Buckets();
    this.gatherInto(shadowInput, shadow);
    const result = await this.run(buckets, shadow, n, true);
    return { details: result.details, shadow: result.shadow };
  }

  private async decide(
    input: I,
    n: number,
    take: boolean,
    debug: boolean,
  ): Promise<Details | DebugDetails<RedisKey>> {
    assertTokens(n);
    const buckets = new Buckets();
    this.gatherInto(input, buckets);
    const { details } = await this.run(buckets, undefined, n, take);
    if (debug) return details;
    const { buckets: _, ...plain } = details;
    return plain;
  }

  /** run decides over `buckets` (and the shadow buckets, if any) in one script run. */
  private async run(
    buckets: Buckets,
    shadowBuckets: Buckets | undefined,
    n: number,
    take: boolean,
  ): Promise<{ details: DebugDetails<RedisKey>; shadow: DebugDetails<RedisKey> | null }> {
    // A shadow bucket that is also one of the decision's would be read before it is spent.
    const shadow = new Buckets();
    if (shadowBuckets) {
      for (let i = 0; i < shadowBuckets.length; i++) {
        if (buckets.redisKeys.includes(shadowBuckets.redisKeys[i] as string)) continue;
        shadow.push(shadowBuckets, i);
      }
    }
    const args: (string | number)[] = [
      take ? 1 : 0,
      n,
      this.clock ? Math.floor(this.clock.now()) : "",
      buckets.length,
    ];
    for (const limit of [...buckets.limits, ...shadow.limits]) {
      args.push(limit.scale, limit.tokenUnits, limit.periodMs);
    }
    const keys = [...buckets.redisKeys, ...shadow.redisKeys];
    const reply = (await runScript(this.redis, keys, args)) as number[];
    const allowed = reply[0] === 1;
    const now = reply[1] as number;
    const details = detailsOf(buckets, reply, 2, allowed, now, n, allowed && take ? n : 0);
    const shadowAnswer = reply[keys.length + 2];
    if (shadow.length === 0 || shadowAnswer === -1) return { details, shadow: null };
    const shadowAllowed = shadowAnswer === 1;
    return {
      details,
      shadow: detailsOf(
        shadow,
        reply,
        2 + buckets.length,
        shadowAllowed,
        now,
        n,
        shadowAllowed && take ? n : 0,
      ),
    };
  }
}

/**
 * detailsOf reads one decision's Details and buckets from the script's reply, whose available
 * units for `buckets` start at `offset`.
 */
function detailsOf(
  buckets: Buckets,
  reply: number[],
  offset: number,
  allowed: boolean,
  now: number,
  n: number,
  consumed: number,
): DebugDetails<RedisKey> {
  let remaining = Number.POSITIVE_INFINITY;
  let retryAfterMs = 0;
  const list: BucketDetails<RedisKey>[] = [];
  for (let i = 0; i < buckets.length; i++) {
    const limit = buckets.limits[i] as Limit;
    const available = reply[offset + i] as number;
    const left = tokensOf(available, limit) - consumed;
    if (left < remaining) remaining = left;
    const ownAllowed = n === 0 || available >= n * limit.tokenUnits;
    let ownRetry = 0;
    if (!ownAllowed) {
      ownRetry =
        n > limit.count
          ? Number.POSITIVE_INFINITY
          : retryOf(n * limit.tokenUnits - available, limit.scale);
    }
    if (!allowed && ownRetry > retryAfterMs) retryAfterMs = ownRetry;
    list.push({
      allowed: ownAllowed,
      executionTime: now,
      tokensRequested: n,
      tokensConsumed: consumed,
      tokensRemaining: left,
      retryAfterMs: ownRetry,
      limit,
      key: buckets.keys[i] as RedisKey,
    });
  }
  return {
    allowed,
    executionTime: now,
    tokensRequested: n,
    tokensConsumed: consumed,
    tokensRemaining: remaining,
    retryAfterMs,
    buckets: list,
  };
}

/** runScript runs DECIDE by its SHA, loading it once when the server does not know it yet. */
async function runScript(
  redis: RedisClient,
  keys: string[],
  args: (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(DECIDE_SHA, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
    return redis.eval(DECIDE, keys.length, ...keys, ...args);
  }
}

/**
 * RedisLimiter is the Limiter of `lib/limiter` with its buckets in Redis, shared by every
 * process that uses the same Redis and prefix. Its methods return Promises; the semantics are
 * the in-memory limiter's, decided at the Redis server's time.
 */
export class RedisLimiter<I> extends RedisDecider<I> {
  readonly redis: RedisClient;
  readonly clock: Clock | undefined;
  readonly prefix: string;
  private readonly keyFunc: KeyFunc<I, RedisKey>;
  private readonly staticLimits: Limit[];
  private readonly limitFuncs: LimitFunc<I>[];

  constructor(
    redis: RedisClient,
    keyFunc: KeyFunc<I, RedisKey>,
    limitsAndLimitFuncs: Limit | LimitFunc<I> | ReadonlyArray<Limit | LimitFunc<I>> = [],
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
    this.prefix = prefix;
    this.keyFunc = keyFunc;
    const items = Array.isArray(limitsAndLimitFuncs)
      ? (limitsAndLimitFuncs as ReadonlyArray<Limit | LimitFunc<I>>)
      : [limitsAndLimitFuncs as Limit | LimitFunc<I>];
    this.staticLimits = [];
    this.limitFuncs = [];
    for (const item of items) {
      if (item instanceof Limit) {
        if (!this.staticLimits.some((l) => l.id === item.id)) this.staticLimits.push(item);
      } else if (typeof item === "function") {
        this.limitFuncs.push(item);
      } else {
        throw new TypeError("limitsAndLimitFuncs must hold Limits and limit funcs only");
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
    for (const limitFunc of this.limitFuncs) {
      const result = limitFunc(input);
      if (result == null) continue;
      for (const item of result instanceof Limit ? [result] : result) {
        if (!(item instanceof Limit)) {
          throw new TypeError("a limit func must return a Limit, an array of Limits, or nothing");
        }
        into.add(this.prefix, item, key);
      }
    }
  }

  /**
   * forget deletes every bucket of `key`, under every limit, and returns how many it deleted:
   * the key starts again from full buckets.
   */
  forget(key: RedisKey): Promise<number> {
    // A bucket of this key has only a limit id after the head: no "}" (that of a longer key).
    const head = `${this.prefix}:{${key}}:`;
    return deleteMatching(
      this.redis,
      bucketPattern(this.prefix, key),
      (redisKey) => !redisKey.slice(head.length).includes("}"),
    );
  }

  /** clear deletes every bucket under this limiter's prefix. */
  async clear(): Promise<void> {
    await deleteMatching(this.redis, bucketPattern(this.prefix));
  }
}

/**
 * deleteMatching deletes the keys that match `pattern` (and pass `keep`) and returns how many it
 * deleted. On a Cluster it scans every primary and deletes key by key, since one DEL may name
 * keys of one slot only.
 */
async function deleteMatching(
  redis: RedisClient,
  pattern: string,
  keep: (key: string) => boolean = () => true,
): Promise<number> {
  const nodes = redis instanceof Cluster ? redis.nodes("master") : [redis];
  let deleted = 0;
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, found] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1000);
      cursor = next;
      const keys = found.filter(keep);
      if (redis instanceof Cluster) {
        for (const key of keys) deleted += await node.del(key);
      } else if (keys.length > 0) {
        deleted += await node.del(...keys);
      }
    } while (cursor !== "0");
  }
  return deleted;
}

/**
 * RedisCombinedLimiter is a stack of Redis limiters on one client with one all-or-nothing
 * decision across all of them, in one script.
 */
export class RedisCombinedLimiter<I> extends RedisDecider<I> {
  readonly redis: RedisClient;
  readonly clock: Clock | undefined;
  private readonly limiters: readonly RedisLimiter<I>[];

  constructor(redis: RedisClient, limiters: readonly RedisLimiter<I>[]) {
    super();
    this.limiters = [...new Set(limiters)];
    if (this.limiters.some((l) => l.redis !== redis)) {
      throw new TypeError("combined Redis limiters must share one Redis client");
    }
    this.redis = redis;
    this.clock = this.limiters[0]?.clock;
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
