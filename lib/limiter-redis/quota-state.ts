import type { Quota, QuotaState } from "@/lib/limiter";
import type { RedisClient, RedisKey } from "./buckets";
import { QUOTA_GRACE_MS, RESTORE_QUOTA } from "./quota-script";

/**
 * readQuotaState reads the quota hash at `redisKey` (of `key` under `quota`'s calendar) as a
 * QuotaState, or null when Redis holds none.
 */
export async function readQuotaState(
  redis: RedisClient,
  redisKey: string,
  key: RedisKey,
  quota: Quota,
): Promise<QuotaState<RedisKey> | null> {
  const [start, used] = await redis.hmget(redisKey, "start", "used");
  if (start == null || used == null) return null;
  return { key, calendarId: quota.calendarId, startMs: Number(start), used: Number(used) };
}

/**
 * mergeQuotaState merges `state` into the hash at `redisKey` with RESTORE_QUOTA (one script
 * run), unless it is of a period before the one holding `nowMs` or uses nothing; with `expire`
 * the key expires a day after the state's period. It reports whether Redis changed.
 */
export async function mergeQuotaState(
  redis: RedisClient,
  redisKey: string,
  quota: Quota,
  state: QuotaState<RedisKey>,
  nowMs: number,
  expire: boolean,
): Promise<boolean> {
  const current = quota.calendar.windowAt(nowMs);
  if (state.startMs < current.startMs || state.used === 0) return false;
  const expireAt = expire
    ? String(quota.calendar.windowAt(state.startMs).endMs + QUOTA_GRACE_MS)
    : "";
  const changed = await redis.eval(
    RESTORE_QUOTA,
    1,
    redisKey,
    String(state.startMs),
    String(state.used),
    expireAt,
  );
  return changed === 1;
}
