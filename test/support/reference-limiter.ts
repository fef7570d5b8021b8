import type { Limit } from "@/lib/limiter";

/** BucketRef names one bucket of a decision: a limit and a key, within a limiter (`scope`). */
export interface BucketRef {
  scope: number;
  limit: Limit;
  key: string;
}

/** ReferenceBucket is what the reference reports for one bucket of a decision. */
export interface ReferenceBucket {
  allowed: boolean;
  tokensRemaining: number;
  retryAfterMs: number;
}

/** ReferenceDecision is what the reference reports for a decision. */
export interface ReferenceDecision {
  allowed: boolean;
  tokensRemaining: number;
  retryAfterMs: number;
  buckets: ReferenceBucket[];
}

/**
 * ReferenceLimiter is limiter.md's "time is the token" arithmetic written as plainly as
 * possible, in BigInt, for property tests to compare against. A limit's time is counted in
 * units of 1/count ms, so one token is `periodMs` units and every quantity is an exact integer
 * for integer clock readings. It is slow and exact; it shares no code with lib/limiter.
 */
export class ReferenceLimiter {
  /** buckets maps a bucket (scope|limit id|key) to its limit and the time it is spent up to. */
  private readonly buckets = new Map<string, { limit: Limit; t: bigint }>();

  /** size is the number of buckets held. */
  get size(): number {
    return this.buckets.size;
  }

  /** decide checks every bucket for `n` tokens at `nowMs` and, if `take`, consumes from all or none. */
  decide(refs: BucketRef[], n: number, nowMs: number, take: boolean): ReferenceDecision {
    if (!Number.isInteger(nowMs)) throw new Error("the reference needs integer clock readings");
    const seen = new Set<string>();
    const unique = refs.filter((ref) => {
      const id = bucketId(ref);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const states = unique.map((ref) => {
      const count = BigInt(ref.limit.count);
      const token = BigInt(ref.limit.periodMs);
      const now = BigInt(nowMs) * count;
      const floor = now - token * count;
      const t = this.buckets.get(bucketId(ref))?.t;
      const cutoff = t === undefined || t < floor ? floor : t;
      const elapsed = now - cutoff;
      const tokens = elapsed <= 0n ? 0n : elapsed / token;
      const target = cutoff + BigInt(n) * token;
      return { ref, count, now, cutoff, tokens, target, ok: n === 0 || target <= now };
    });
    const allowed = states.every((s) => s.ok);
    const consumed = allowed && take ? n : 0;
    const buckets = states.map((s) => ({
      allowed: s.ok,
      tokensRemaining: Number(s.tokens) - consumed,
      retryAfterMs: s.ok
        ? 0
        : n > s.ref.limit.count
          ? Number.POSITIVE_INFINITY
          : Number(s.target - s.now) / Number(s.count),
    }));
    if (allowed && take && n > 0) {
      for (const s of states)
        this.buckets.set(bucketId(s.ref), { limit: s.ref.limit, t: s.target });
    }
    return {
      allowed,
      tokensRemaining: Math.min(Number.POSITIVE_INFINITY, ...buckets.map((b) => b.tokensRemaining)),
      retryAfterMs: allowed ? 0 : Math.max(0, ...buckets.map((b) => b.retryAfterMs)),
      buckets,
    };
  }

  /** gc deletes the buckets that are full at `nowMs` and returns how many. */
  gc(nowMs: number): number {
    let deleted = 0;
    for (const [id, { limit, t }] of this.buckets) {
      const floor = (BigInt(nowMs) - BigInt(limit.periodMs)) * BigInt(limit.count);
      if (t <= floor) {
        this.buckets.delete(id);
        deleted++;
      }
    }
    return deleted;
  }
}

/** bucketId identifies a bucket: equal limits of one scope share it for the same key. */
export function bucketId(ref: BucketRef): string {
  return `${ref.scope}|${ref.limit.id}|${ref.key}`;
}
