import type { Limit, Quota } from "@/lib/limiter";
import type { Buckets } from "./buckets";
import { QUOTA_DOUBLES, QUOTA_SHIFT } from "./quota-script";
import { SHADOW } from "./script";

/**
 * BatchedDecision is what DECIDE needs of one decision: its buckets, tokens, whether to take,
 * and whether it is the shadow of the decision before it (decided only if that one allows).
 */
export interface BatchedDecision {
  buckets: Buckets;
  n: number;
  take: boolean;
  shadow?: boolean;
}

/**
 * encodeBatch lists a batch's bucket keys once each and packs DECIDE's argument: the time `at`
 * (whole ms, NaN for the server's clock), the deadline by the server's clock (ms, Infinity by
 * default: none; the ScriptRunner writes the real one), then per decision its signed count
 * (buckets plus QUOTA_SHIFT per quota), per bucket the key's index, the limit's scale and
 * period, and the units wanted, and per quota the key's index, the count, the period's start
 * and end (ms), the tokens wanted and the seed (the tokens used this instance remembers for the
 * period: used only when Redis holds no state). A decision holds fewer than QUOTA_SHIFT of each.
 */
export function encodeBatch(
  batch: readonly BatchedDecision[],
  at: number,
  redisDeadline = Number.POSITIVE_INFINITY,
): { keys: string[]; args: Buffer } {
  // One decision's keys are distinct already: they are the script's KEYS as they are.
  const first = batch.length === 1 ? batch[0]?.buckets : undefined;
  const single =
    first === undefined
      ? undefined
      : first.quotas.length === 0
        ? first.redisKeys
        : [...first.redisKeys, ...first.quotaRedisKeys];
  const keys: string[] = single ?? [];
  const index = single ? undefined : new Map<string, number>();
  let doubles = 2;
  for (const queued of batch) {
    const { length, quotas } = queued.buckets;
    if (length >= QUOTA_SHIFT || quotas.length >= QUOTA_SHIFT) {
      throw new RangeError(
        `a decision spans at most ${QUOTA_SHIFT - 1} buckets and as many quotas, got ${length} and ${quotas.length}`,
      );
    }
    doubles += 1 + 4 * length + QUOTA_DOUBLES * quotas.length;
  }
  const args = Buffer.allocUnsafe(8 * doubles);
  let offset = args.writeDoubleBE(at, 0);
  offset = args.writeDoubleBE(redisDeadline, offset);
  for (const { buckets, n, take, shadow } of batch) {
    const entries = buckets.length + QUOTA_SHIFT * buckets.quotas.length;
    const count = take ? entries : -entries;
    offset = args.writeDoubleBE(shadow ? count + SHADOW : count, offset);
    for (let i = 0; i < buckets.length; i++) {
      let position = i + 1;
      if (index) {
        const redisKey = buckets.redisKeys[i] as string;
        const known = index.get(redisKey);
        if (known === undefined) {
          position = keys.push(redisKey);
          index.set(redisKey, position);
        } else {
          position = known;
        }
      }
      const limit = buckets.limits[i] as Limit;
      offset = args.writeDoubleBE(position, offset);
      offset = args.writeDoubleBE(limit.scale, offset);
      offset = args.writeDoubleBE(limit.periodMs, offset);
      offset = args.writeDoubleBE(n * limit.tokenUnits, offset);
    }
    for (let i = 0; i < buckets.quotas.length; i++) {
      let position = buckets.length + i + 1;
      if (index) {
        const redisKey = buckets.quotaRedisKeys[i] as string;
        const known = index.get(redisKey);
        if (known === undefined) {
          position = keys.push(redisKey);
          index.set(redisKey, position);
        } else {
          position = known;
        }
      }
      offset = args.writeDoubleBE(position, offset);
      offset = args.writeDoubleBE((buckets.quotas[i] as Quota).count, offset);
      offset = args.writeDoubleBE(buckets.quotaStarts[i] as number, offset);
      offset = args.writeDoubleBE(buckets.quotaEnds[i] as number, offset);
      offset = args.writeDoubleBE(n, offset);
      offset = args.writeDoubleBE(buckets.quotaSeeds[i] ?? 0, offset);
    }
  }
  return { keys, args };
}

/**
 * chargedIn counts the decisions of `batch` (shadows aside: they ride with their decision) that
 * took tokens, by the script's `reply`.
 */
export function chargedIn(batch: readonly BatchedDecision[], reply: Buffer): number {
  let charged = 0;
  let offset = 8;
  for (const queued of batch) {
    const { buckets } = queued;
    if (queued.take && !queued.shadow && buckets.length + buckets.quotas.length > 0) {
      if (reply.readDoubleBE(offset) === 1) charged++;
    }
    offset += 8 * buckets.replyDoubles;
  }
  return charged;
}
