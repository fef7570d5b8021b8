import type { Cluster, Redis } from "ioredis";
import type { Limit, Quota } from "@/lib/limiter";
import type { QuotaMemory } from "./quota-memory";

/**
 * RedisClient is the connection the limiter runs its script on: one Redis server (or a primary
 * with replicas), or a Redis Cluster.
 */
export type RedisClient = Redis | Cluster;

/** RedisKey is what a key func of the Redis limiter may return: it becomes part of a Redis key. */
export type RedisKey = string | number;

/**
 * Buckets is a decision's working set: each bucket's limit, key and Redis key, and each quota's
 * with the period it counts in (`[quotaStarts, quotaEnds)`, ms since the epoch, filled in when
 * the decision's time is known), the memory of the limiter it came from and the count that
 * memory seeds a lost key with (`quotaSeeds`, filled in with the period). Equal limits of the
 * same limiter for the same key appear once; quotas of one calendar for one key (one state)
 * once, at the smaller count.
 */
export class Buckets {
  readonly limits: Limit[] = [];
  readonly keys: RedisKey[] = [];
  readonly redisKeys: string[] = [];
  readonly quotas: Quota[] = [];
  readonly quotaKeys: RedisKey[] = [];
  readonly quotaRedisKeys: string[] = [];
  readonly quotaStarts: number[] = [];
  readonly quotaEnds: number[] = [];
  readonly quotaMemories: QuotaMemory[] = [];
  readonly quotaSeeds: number[] = [];

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

  /**
   * addQuota adds a quota of `key`, remembered in `memory` (its limiter's); one of a calendar
   * already there keeps the smaller count.
   */
  addQuota(prefix: string, quota: Quota, key: RedisKey, memory: QuotaMemory): void {
    const redisKey = quotaKey(prefix, key, quota);
    const at = this.quotaRedisKeys.indexOf(redisKey);
    if (at >= 0) {
      if (quota.count < (this.quotas[at] as Quota).count) this.quotas[at] = quota;
      return;
    }
    this.quotas.push(quota);
    this.quotaKeys.push(key);
    this.quotaRedisKeys.push(redisKey);
    this.quotaMemories.push(memory);
  }

  /** copy appends the `i`-th bucket of `other` as it is. */
  copy(other: Buckets, i: number): void {
    this.limits.push(other.limits[i] as Limit);
    this.keys.push(other.keys[i] as RedisKey);
    this.redisKeys.push(other.redisKeys[i] as string);
  }

  /** copyQuota appends the `i`-th quota of `other` as it is. */
  copyQuota(other: Buckets, i: number): void {
    this.quotas.push(other.quotas[i] as Quota);
    this.quotaKeys.push(other.quotaKeys[i] as RedisKey);
    this.quotaRedisKeys.push(other.quotaRedisKeys[i] as string);
    this.quotaMemories.push(other.quotaMemories[i] as QuotaMemory);
  }

  /** replyDoubles is how many doubles the decision's part of the script's reply holds. */
  get replyDoubles(): number {
    return 1 + this.limits.length + 2 * this.quotas.length;
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
 * quotaKey names one quota state in Redis, a hash of `start` and `used` (whole numbers):
 * `<prefix>:{<key>}:q:<calendarId>`, under the key's hash tag beside its buckets, so one
 * script decides both (on a Cluster too), and `forget` and `clear` find it as they find them.
 */
export function quotaKey(prefix: string, key: RedisKey, quota: Quota): string {
  return `${prefix}:{${key}}:q:${quota.calendarId}`;
}
