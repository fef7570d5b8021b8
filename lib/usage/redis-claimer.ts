import { randomUUID } from "node:crypto";
import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import type { UsageBatch } from "./batch";
import { batchOfHash } from "./redis-codec";
import { CLAIM, RECLAIM } from "./redis-scripts";
import { withTimeout } from "./with-timeout";

/** MAX_MINUTES_PER_CLAIM bounds one claim (and so one SQLite transaction). */
const MAX_MINUTES_PER_CLAIM = 120;

/** ClaimedMinute is one claim of a closed minute, read back from Redis. */
export interface ClaimedMinute {
  key: string;
  batch: UsageBatch;
}

/** RedisClaimerOptions configure how an instance with the database claims the fleet's minutes. */
export interface RedisClaimerOptions {
  redis: RedisClient;
  /** prefix starts every key ("rk" by default): the keys are "<prefix>:{usage}:…". */
  prefix: string;
  /** timeoutMs bounds each round trip to Redis. */
  timeoutMs: number;
  log: Logger;
  /** leaseMs is how long a claim is its claimer's before another may take it over (60 s). */
  leaseMs?: number;
}

/**
 * RedisUsageClaimer carries the fleet's closed minutes from Redis to SQLite, on instances with a
 * database. A minute is closed once it ended a grace period ago (instances push within a flush
 * interval). A claimer atomically renames closed minutes' hashes to claim keys under a lease,
 * reads them, writes them to SQLite with the claim keys in one transaction, then deletes them.
 * A claimer that dies leaves its claims behind; once the lease lapses another takes them over,
 * and SQLite's record of written claims keeps a claim from counting twice.
 */
export class RedisUsageClaimer {
  private readonly redis: RedisClient;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly log: Logger;
  private readonly leaseMs: number;

  constructor(options: RedisClaimerOptions) {
    this.redis = options.redis;
    this.base = `${options.prefix}:{usage}`;
    this.timeoutMs = options.timeoutMs;
    this.log = options.log;
    this.leaseMs = options.leaseMs ?? 60_000;
  }

  /** connected tells whether Redis can be sent commands now. */
  get connected(): boolean {
    return this.redis.status === "ready";
  }

  /**
   * claim takes over expired claims and claims the minutes that started at or before
   * `latestStartMs`, reads them, hands them to `write` (which must record each claim key with
   * its rows, in one transaction), then deletes them from Redis. Returns the claims handled.
   */
  async claim(
    now: number,
    latestStartMs: number,
    write: (claims: ClaimedMinute[]) => void,
  ): Promise<number> {
    const claimsKey = `${this.base}:claims`;
    const stale = (await withTimeout(
      this.redis.eval(RECLAIM, 1, claimsKey, now - this.leaseMs, MAX_MINUTES_PER_CLAIM, now),
      this.timeoutMs * 5,
      "Usage reclaim",
    )) as string[];
    const fresh = (await withTimeout(
      this.redis.eval(
        CLAIM,
        2,
        `${this.base}:open`,
        claimsKey,
        latestStartMs,
        MAX_MINUTES_PER_CLAIM,
        now,
        randomUUID(),
        this.base,
      ),
      this.timeoutMs * 5,
      "Usage claim",
    )) as string[];
    const keys = [...stale, ...fresh];
    if (keys.length === 0) return 0;
    const read = this.redis.pipeline();
    for (const key of keys) read.hgetall(key);
    const replies = (await withTimeout(read.exec(), this.timeoutMs * 5, "Usage read")) ?? [];
    const claims: ClaimedMinute[] = [];
    keys.forEach((key, i) => {
      const [error, hash] = replies[i] ?? [new Error("no reply"), null];
      if (error) throw error;
      const startMs = Number(key.slice(`${this.base}:claim:`.length).split(":")[0]);
      claims.push({
        key,
        batch: batchOfHash(startMs, (hash ?? {}) as Record<string, string>, (field) =>
          this.log.warn(`Skipped an unreadable usage field in Redis: ${field}`),
        ),
      });
    });
    write(claims);
    const cleanup = this.redis.pipeline();
    for (const key of keys) cleanup.del(key).zrem(claimsKey, key);
    await withTimeout(cleanup.exec(), this.timeoutMs * 5, "Usage claim cleanup");
    return claims.length;
  }
}
