import type { Clock, Limit, Quota } from "@/lib/limiter";
import { retryAfterMs, wholeTokens } from "@/lib/limiter/bucket-arithmetic";
import { DetailsBuilder } from "@/lib/limiter/details";
import { type AsyncResults, assertTokens, MethodSet } from "@/lib/limiter/method-set";
import type { DebugDetails, Details } from "@/lib/limiter/types";
import type { DecisionBatcher } from "./batch";
import type { ReadReply } from "./batch-flight";
import { Buckets, type RedisClient, type RedisKey } from "./buckets";
import { noteQuotas, type QuotaMemory } from "./quota-memory";

/**
 * RedisDecider implements the Limiter method set (MethodSet), asynchronously, over buckets kept
 * in Redis: every decision, however many limits and limiters it spans, is decided by one script
 * run, one round trip, which it shares with the decisions made on the same client in the same
 * tick.
 */
export abstract class RedisDecider<I> extends MethodSet<I, AsyncResults<RedisKey>> {
  /** redis is the client the script runs on. */
  abstract readonly redis: RedisClient;
  /** clock is the injected clock, if any; without one the Redis server's clock decides. */
  abstract override readonly clock: Clock | undefined;
  /** batcher sends the decisions: shared by every decider on the client that uses it. */
  abstract readonly batcher: DecisionBatcher;
  /**
   * timeoutMs is how long a decision waits for Redis (ms; Infinity: as long as it takes). A
   * decision that has not started running in Redis by then never will: it rejects with a
   * RedisDeadlineError and takes nothing.
   */
  abstract readonly timeoutMs: number;

  /** @internal Lists the input's buckets into `into`, in order: limiter, then limit. */
  abstract gatherInto(input: I, into: Buckets): void;

  protected tryTake(input: I, n: number): Promise<boolean> {
    return this.decide(input, n, true, allowedIn);
  }

  protected canTake(input: I, n: number): Promise<boolean> {
    return this.decide(input, n, false, allowedIn);
  }

  protected decideDetails(input: I, n: number, take: boolean): Promise<Details> {
    return this.decide(input, n, take, detailsIn);
  }

  protected decideDebug(input: I, n: number, take: boolean): Promise<DebugDetails<RedisKey>> {
    return this.decide(input, n, take, debugIn);
  }

  /**
   * allowNWithShadow is `allowNWithDebug` for `input`, plus a shadow decision over the buckets
   * of `shadowInput` (dry-run limits) in the same script run, the same round trip: the shadow is
   * decided only when the decision allows, takes its `n` tokens only if every shadow bucket has
   * them, and never changes the decision. `shadow` is null when it was not decided (the decision
   * refused, or `shadowInput` names no bucket beyond the decision's own, which it would share).
   */
  async allowNWithShadow(
    input: I,
    n: number,
    shadowInput: I,
  ): Promise<{ details: DebugDetails<RedisKey>; shadow: DebugDetails<RedisKey> | null }> {
    assertTokens(n);
    const buckets = new Buckets();
    this.gatherInto(input, buckets);
    const gathered = new Buckets();
    this.gatherInto(shadowInput, gathered);
    const shadow = new Buckets();
    for (let i = 0; i < gathered.length; i++) {
      if (!buckets.redisKeys.includes(gathered.redisKeys[i] as string)) shadow.copy(gathered, i);
    }
    for (let i = 0; i < gathered.quotas.length; i++) {
      const redisKey = gathered.quotaRedisKeys[i] as string;
      if (!buckets.quotaRedisKeys.includes(redisKey)) shadow.copyQuota(gathered, i);
    }
    if (shadow.length + shadow.quotas.length === 0) {
      return { details: await this.decide(input, n, true, debugIn), shadow: null };
    }
    const at = this.at();
    if (buckets.quotas.length + shadow.quotas.length > 0) {
      const time = await this.quotaTime(buckets.quotas.length > 0 ? buckets : shadow, at);
      placeQuotas(buckets, time);
      placeQuotas(shadow, time);
    }
    const [first, second] = await this.batcher.runWithShadow(
      buckets,
      shadow,
      n,
      at,
      this.timeoutMs,
    );
    const details = debugIn(buckets, first.reply, first.offset, n, true);
    if (buckets.quotas.length > 0) noteQuotas(buckets, first.reply, first.offset, n, true);
    if (second.reply.readDoubleBE(second.offset) < 0) return { details, shadow: null };
    if (shadow.quotas.length > 0) noteQuotas(shadow, second.reply, second.offset, n, true);
    return { details, shadow: debugIn(shadow, second.reply, second.offset, n, true) };
  }

  /**
   * quotaTime is the time a decision's quota periods are computed at (ms since the epoch): the
   * injected clock's `at`, or the Redis server's time as this instance estimates it.
   */
  private quotaTime(buckets: Buckets, at: number): number | Promise<number> {
    return Number.isNaN(at) ? this.batcher.redisTime(buckets) : at;
  }

  /** at is the execution time to send: the injected clock's whole ms, or NaN for the server's. */
  private at(): number {
    const at = this.clock ? Math.floor(this.clock.now()) : Number.NaN;
    if (this.clock && !Number.isFinite(at)) {
      throw new RangeError(`the clock must read a finite number of ms, got ${at}`);
    }
    return at;
  }

  /**
   * decide sends one decision to the batcher and resolves with what `read` reads of its reply;
   * a caller's mistake (a bad `n`, key or clock) rejects, as from an async function.
   */
  private decide<T>(input: I, n: number, take: boolean, read: ReadReply<T>): Promise<T> {
    let buckets: Buckets;
    let at: number;
    try {
      assertTokens(n);
      buckets = new Buckets();
      this.gatherInto(input, buckets);
      at = this.at();
      if (buckets.quotas.length > 0) {
        // What Redis answers of the quotas is remembered, to seed a key Redis loses.
        const noted: ReadReply<T> = (b, reply, offset, tokens, taking) => {
          noteQuotas(b, reply, offset, tokens, taking);
          return read(b, reply, offset, tokens, taking);
        };
        const time = this.quotaTime(buckets, at);
        if (typeof time !== "number") {
          return time.then((t) => {
            placeQuotas(buckets, t);
            return this.batcher.run(buckets, n, take, at, this.timeoutMs, noted);
          });
        }
        placeQuotas(buckets, time);
        return this.batcher.run(buckets, n, take, at, this.timeoutMs, noted);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return this.batcher.run(buckets, n, take, at, this.timeoutMs, read);
  }
}

/**
 * placeQuotas computes each quota's period at `time` (ms since the epoch; a RangeError for a
 * clock that does not count from the epoch) into the decision's working set, with the count its
 * limiter's memory holds for that period (the seed of a key Redis lost).
 */
function placeQuotas(buckets: Buckets, time: number): void {
  for (let i = 0; i < buckets.quotas.length; i++) {
    const calendar = (buckets.quotas[i] as Quota).calendar;
    calendar.refresh(time);
    buckets.quotaStarts[i] = calendar.startMs;
    buckets.quotaEnds[i] = calendar.endMs;
    const memory = buckets.quotaMemories[i] as QuotaMemory;
    buckets.quotaSeeds[i] = memory.seed(buckets.quotaRedisKeys[i] as string, calendar.startMs);
  }
}

/**
 * outcomeOf is a decision's outcome in `reply` at `offset`: 1 allowed, 0 refused (or -2, a
 * shadow not decided); a key that is not a bucket (-1) is an Error.
 */
function outcomeOf(buckets: Buckets, reply: Buffer, offset: number): number {
  const outcome = reply.readDoubleBE(offset);
  if (outcome === -1) {
    throw new Error(
      `Redis holds something other than a bucket at ${[...buckets.redisKeys, ...buckets.quotaRedisKeys].join(", ")}: nothing was taken`,
    );
  }
  return outcome;
}

/** allowedIn reads a decision's verdict from its part of the script's reply. */
const allowedIn: ReadReply<boolean> = (buckets, reply, offset) =>
  outcomeOf(buckets, reply, offset) === 1;

/** detailsIn reads a decision's Details from its part of the script's reply. */
const detailsIn: ReadReply<Details> = (buckets, reply, offset, n, take) =>
  detailsOf(buckets, reply, offset, n, take, false);

/** debugIn reads a decision's Details and each bucket's from its part of the script's reply. */
const debugIn: ReadReply<DebugDetails<RedisKey>> = (buckets, reply, offset, n, take) =>
  detailsOf(buckets, reply, offset, n, take, true) as DebugDetails<RedisKey>;

/**
 * detailsOf reads one decision's Details (and each bucket's, with `debug`) from its part of the
 * script's reply; a key that is not a bucket is an Error.
 */
function detailsOf(
  buckets: Buckets,
  reply: Buffer,
  offset: number,
  n: number,
  take: boolean,
  debug: boolean,
): Details | DebugDetails<RedisKey> {
  const outcome = outcomeOf(buckets, reply, offset);
  const details = new DetailsBuilder<RedisKey>();
  details.open(outcome === 1, reply.readDoubleBE(0), n, take, debug);
  const consumed = details.consumed;
  for (let i = 0; i < buckets.length; i++) {
    const limit = buckets.limits[i] as Limit;
    const available = reply.readDoubleBE(offset + 8 * (i + 1));
    const ownAllowed = n === 0 || available >= n * limit.tokenUnits;
    details.add(
      limit,
      buckets.keys[i] as RedisKey,
      wholeTokens(available, limit.tokenUnits),
      ownAllowed,
      // The reply counts from the decision's instant: the bucket holds `available` units then
      // and has the tokens once the units missing have come.
      ownAllowed ? 0 : retryAfterMs(limit, n, 0, 0, 0, n * limit.tokenUnits - available),
      Math.max(0, limit.periodUnits - available + consumed * limit.tokenUnits) / limit.scale,
    );
  }
  let at = offset + 8 * (1 + buckets.length);
  for (let i = 0; i < buckets.quotas.length; i++) {
    const quota = buckets.quotas[i] as Quota;
    const startMs = reply.readDoubleBE(at);
    const used = reply.readDoubleBE(at + 8);
    at += 16;
    // A period later than the one this instance computed (its clock lags at a boundary): its
    // end is the calendar's, from its start.
    const endMs =
      startMs === buckets.quotaStarts[i]
        ? (buckets.quotaEnds[i] as number)
        : quota.calendar.windowAt(startMs).endMs;
    details.addQuota(quota, buckets.quotaKeys[i] as RedisKey, used, startMs, endMs);
  }
  return details.close();
}
