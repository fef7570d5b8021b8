import type { Cluster, Redis } from "ioredis";
import type { Limit } from "@/lib/limiter";

/**
 * RedisClient is the connection the limiter runs its script on: one Redis server (or a primary
 * with replicas), or a Redis Cluster.
 */
export type RedisClient = Redis | Cluster;

/** RedisKey is what a key func of the Redis limiter may return: it becomes part of a Redis key. */
export type RedisKey = string | number;

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

  /** copy appends the `i`-th bucket of `other` as it is. */
  copy(other: Buckets, i: number): void {
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
