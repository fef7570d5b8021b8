import type { Quota, QuotaState } from "@/lib/limiter";
import type { Buckets, RedisKey } from "./buckets";

/** QUOTA_MEMORY_ENTRIES bounds the quota counts a limiter remembers (the least recent go first). */
export const QUOTA_MEMORY_ENTRIES = 100_000;

/** Remembered is the last state of one quota key this instance saw in Redis. */
interface Remembered {
  quota: Quota;
  key: RedisKey;
  startMs: number;
  used: number;
}

/**
 * QuotaMemory is what one instance last saw of each quota key in Redis (the period's start and
 * the tokens used then, after its own decision), for at most `capacity` keys, the least recently
 * seen forgotten first. A decision sends the count remembered for the period it computes as a
 * seed: the script uses it only when Redis holds no state for the key (lost to FLUSHALL, an
 * eviction or a restart without persistence), so a lost key starts from what this instance knew
 * rather than from 0. It is also what a stand-in starts from during an outage (`states`).
 */
export class QuotaMemory {
  private readonly entries = new Map<string, Remembered>();
  readonly capacity: number;

  constructor(capacity = QUOTA_MEMORY_ENTRIES) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) {
      throw new RangeError(`capacity must be a whole number of entries, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** size is how many quota keys are remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** seed is the tokens used remembered at `redisKey` for the period starting at `startMs`, else 0. */
  seed(redisKey: string, startMs: number): number {
    const known = this.entries.get(redisKey);
    return known !== undefined && known.startMs === startMs ? known.used : 0;
  }

  /** seen remembers the state of `redisKey` (of `key` under `quota`) as Redis answered it. */
  seen(redisKey: string, quota: Quota, key: RedisKey, startMs: number, used: number): void {
    const known = this.entries.get(redisKey);
    if (known !== undefined) {
      this.entries.delete(redisKey);
      known.quota = quota;
      known.startMs = startMs;
      known.used = used;
      this.entries.set(redisKey, known);
      return;
    }
    if (this.capacity === 0) return;
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(redisKey, { quota, key, startMs, used });
  }

  /** raise remembers `used` for `redisKey` when larger than what it holds for the same period. */
  raise(redisKey: string, quota: Quota, key: RedisKey, startMs: number, used: number): void {
    const known = this.entries.get(redisKey);
    if (known !== undefined && known.startMs > startMs) return;
    if (known !== undefined && known.startMs === startMs && known.used >= used) return;
    this.seen(redisKey, quota, key, startMs, used);
  }

  /** forget drops what is remembered of `key`'s quotas (a reset) and returns how many. */
  forget(key: RedisKey): number {
    let dropped = 0;
    for (const [redisKey, known] of this.entries) {
      if (known.key === key) {
        this.entries.delete(redisKey);
        dropped++;
      }
    }
    return dropped;
  }

  /** clear forgets everything. */
  clear(): void {
    this.entries.clear();
  }

  /** states lists what is remembered, each with its quota (for `restoreQuota` elsewhere). */
  *states(): IterableIterator<{ quota: Quota; state: QuotaState<RedisKey> }> {
    for (const known of this.entries.values()) {
      yield {
        quota: known.quota,
        state: {
          key: known.key,
          calendarId: known.quota.calendarId,
          startMs: known.startMs,
          used: known.used,
        },
      };
    }
  }
}

/**
 * noteQuotas remembers, in each quota's memory, what a decision's reply (its part at `offset`)
 * says of its quotas: the period's start and the tokens used, plus `n` when the decision took
 * them. A decision that failed (a key that is not a quota) teaches nothing.
 */
export function noteQuotas(
  buckets: Buckets,
  reply: Buffer,
  offset: number,
  n: number,
  take: boolean,
): void {
  const outcome = reply.readDoubleBE(offset);
  if (outcome !== 0 && outcome !== 1) return;
  const taken = take && outcome === 1 ? n : 0;
  let at = offset + 8 * (1 + buckets.length);
  for (let i = 0; i < buckets.quotas.length; i++) {
    const startMs = reply.readDoubleBE(at);
    const used = reply.readDoubleBE(at + 8);
    at += 16;
    (buckets.quotaMemories[i] as QuotaMemory).seen(
      buckets.quotaRedisKeys[i] as string,
      buckets.quotas[i] as Quota,
      buckets.quotaKeys[i] as RedisKey,
      startMs,
      used + taken,
    );
  }
}
