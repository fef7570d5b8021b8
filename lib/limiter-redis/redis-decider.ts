import type { Clock, Limit } from "@/lib/limiter";
import { retryAfterMs, wholeTokens } from "@/lib/limiter/bucket-arithmetic";
import { DetailsBuilder } from "@/lib/limiter/details";
import { type AsyncResults, assertTokens, MethodSet } from "@/lib/limiter/method-set";
import type { DebugDetails, Details } from "@/lib/limiter/types";
import type { DecisionBatcher, ScriptReply } from "./batch";
import { Buckets, type RedisClient, type RedisKey } from "./buckets";

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

  protected async tryTake(input: I, n: number): Promise<boolean> {
    return (await this.decide(input, n, true, false)).allowed;
  }

  protected async canTake(input: I, n: number): Promise<boolean> {
    return (await this.decide(input, n, false, false)).allowed;
  }

  protected decideDetails(input: I, n: number, take: boolean): Promise<Details> {
    return this.decide(input, n, take, false);
  }

  protected decideDebug(input: I, n: number, take: boolean): Promise<DebugDetails<RedisKey>> {
    return this.decide(input, n, take, true) as Promise<DebugDetails<RedisKey>>;
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
    if (shadow.length === 0) {
      return {
        details: (await this.decide(input, n, true, true)) as DebugDetails<RedisKey>,
        shadow: null,
      };
    }
    const [first, second] = await this.batcher.runWithShadow(
      buckets,
      shadow,
      n,
      this.at(),
      this.timeoutMs,
    );
    const details = detailsOf(buckets, first, n, true, true) as DebugDetails<RedisKey>;
    if (second.reply.readDoubleBE(second.offset) < 0) return { details, shadow: null };
    return { details, shadow: detailsOf(shadow, second, n, true, true) as DebugDetails<RedisKey> };
  }

  /** at is the execution time to send: the injected clock's whole ms, or NaN for the server's. */
  private at(): number {
    const at = this.clock ? Math.floor(this.clock.now()) : Number.NaN;
    if (this.clock && !Number.isFinite(at)) {
      throw new RangeError(`the clock must read a finite number of ms, got ${at}`);
    }
    return at;
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
    const part = await this.batcher.run(buckets, n, take, this.at(), this.timeoutMs);
    return detailsOf(buckets, part, n, take, debug);
  }
}

/**
 * detailsOf reads one decision's Details (and each bucket's, with `debug`) from its part of the
 * script's reply; a key that is not a bucket is an Error.
 */
function detailsOf(
  buckets: Buckets,
  { reply, offset }: ScriptReply,
  n: number,
  take: boolean,
  debug: boolean,
): Details | DebugDetails<RedisKey> {
  const outcome = reply.readDoubleBE(offset);
  if (outcome === -1) {
    throw new Error(
      `Redis holds something other than a bucket at ${buckets.redisKeys.join(", ")}: nothing was taken`,
    );
  }
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
  return details.close();
}
