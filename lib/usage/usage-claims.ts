import type { Db } from "@/db/client";
import type { Clock } from "@/lib/limiter";
import type { Metrics } from "@/lib/metrics";
import type { RedisUsageClaimer } from "./redis-claimer";
import { SerialQueue } from "./serial-queue";
import { writeClaims } from "./sqlite-writer";
import { MINUTE_MS } from "./time";

/** CLOSE_GRACE_MS: a minute is claimed once it ended a flush interval and this long ago. */
const CLOSE_GRACE_MS = 5_000;

/** UsageClaimsOptions: the claimer that reads Redis, the database it writes, the flush interval. */
export interface UsageClaimsOptions {
  claimer: RedisUsageClaimer;
  db: Db;
  clock: Clock;
  metrics: Metrics;
  /** flushIntervalMs: every instance pushes its counts within this long (ms). */
  flushIntervalMs: number;
}

/**
 * UsageClaims writes the fleet's closed minutes from Redis into SQLite (the full app with Redis
 * only): a minute is closed once it ended a flush interval and CLOSE_GRACE_MS ago, by when every
 * instance has pushed its counts. Claims run one at a time; the rows written count as the
 * "sqlite" sink's in the metrics, a failed claim as one of its failures.
 */
export class UsageClaims {
  private readonly options: UsageClaimsOptions;
  private readonly queue = new SerialQueue();

  constructor(options: UsageClaimsOptions) {
    this.options = options;
  }

  /** claim resolves with the claims written (0 while Redis is not connected). */
  claim(): Promise<number> {
    return this.queue.run(() => this.claimNow());
  }

  private async claimNow(): Promise<number> {
    const { claimer, db, clock, metrics, flushIntervalMs } = this.options;
    if (!claimer.connected) return 0;
    const now = clock.now();
    const graceMs = flushIntervalMs + CLOSE_GRACE_MS;
    try {
      let rows = 0;
      const claims = await claimer.claim(now, now - MINUTE_MS - graceMs, (claimed) => {
        rows = writeClaims(db, claimed, now).rows;
      });
      if (rows > 0) metrics.usageFlushed("sqlite", rows);
      return claims;
    } catch (error) {
      metrics.usageFlushFailed("sqlite");
      throw error;
    }
  }
}
