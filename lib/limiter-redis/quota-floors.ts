import { Cluster } from "ioredis";
import type { Quota } from "@/lib/limiter";
import { quotaKey, type RedisClient, type RedisKey } from "./buckets";
import { QUOTA_GRACE_MS, RESTORE_QUOTA } from "./quota-script";

/**
 * QuotaFloor is a count a quota key must hold at least: `used` tokens of `key` under `quota`'s
 * calendar in the period starting at `startMs` (ms since the epoch), as another source (the
 * usage rollups) knows it.
 */
export interface QuotaFloor {
  key: RedisKey;
  quota: Quota;
  startMs: number;
  used: number;
}

/**
 * raiseQuotas raises every quota key of `floors` (under `prefix`) to at least its floor, each
 * with RESTORE_QUOTA (a key Redis holds for the same period keeps the larger count, one of a
 * later period is left alone, a missing or older one takes the floor), all in one pipeline on
 * one Redis (concurrent commands on a Cluster, whose pipelines keep to one slot). With `expire`
 * a key written anew expires a day after its period, as the decisions' keys do (not with an
 * injected clock). It resolves with how many keys changed.
 */
export async function raiseQuotas(
  redis: RedisClient,
  prefix: string,
  floors: readonly QuotaFloor[],
  expire: boolean,
): Promise<number> {
  const commands = floors
    .filter((floor) => floor.used > 0)
    .map((floor) => {
      const expireAt = expire
        ? String(floor.quota.calendar.windowAt(floor.startMs).endMs + QUOTA_GRACE_MS)
        : "";
      return [
        quotaKey(prefix, floor.key, floor.quota),
        String(floor.startMs),
        String(floor.used),
        expireAt,
      ] as const;
    });
  if (commands.length === 0) return 0;
  if (redis instanceof Cluster) {
    const changed = await Promise.all(
      commands.map((args) => redis.eval(RESTORE_QUOTA, 1, ...args) as Promise<number>),
    );
    return changed.filter((c) => c === 1).length;
  }
  const pipeline = redis.pipeline();
  for (const args of commands) pipeline.eval(RESTORE_QUOTA, 1, ...args);
  const results = (await pipeline.exec()) ?? [];
  let changed = 0;
  for (const [error, reply] of results) {
    if (error) throw error;
    if (reply === 1) changed++;
  }
  return changed;
}
