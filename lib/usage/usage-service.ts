import type { Db } from "@/db/client";
import type { Clock } from "@/lib/limiter";
import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import type { Metrics } from "@/lib/metrics";
import { isEmpty, mergeBatches, type UsageBatch } from "./batch";
import { type LiveTraffic, LocalLiveTraffic, RedisLiveTraffic } from "./live-traffic";
import { RedisUsageClaimer } from "./redis-claimer";
import { RedisUsageRelay } from "./redis-relay";
import { type FoldResult, foldAndPrune, writeBatch, writeClaims } from "./sqlite-writer";
import { DAY_MS, MINUTE_MS } from "./time";
import type { TrafficLog } from "./traffic-log";
import { UsageCounter } from "./usage-counter";
import type { UsageWrites } from "./usage-pusher";
import type { UsageSettings } from "./usage-settings";
import { startUsageTimers } from "./usage-timers";

/** UsageServiceOptions: what the usage rollups need of the process. */
export interface UsageServiceOptions {
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  traffic: TrafficLog;
  settings: UsageSettings;
  /** db receives the rollups (an edge has none: its usage is a UsagePusher). */
  db: Db;
  /** redis, when set, carries the counts of every instance (see RedisUsageRelay). */
  redis?: { client: RedisClient; prefix: string; timeoutMs: number };
}

/** MAX_RETRY_ROWS bounds the rows kept in memory while SQLite refuses them. */
const MAX_RETRY_ROWS = 1_000_000;

/**
 * UsageService keeps the usage rollups: decisions count into memory (`record`), and timers flush
 * them every `flushIntervalMs` in one transaction (or, with Redis, push them for the fleet and
 * claim the fleet's closed minutes into SQLite), fold minutes into hours and prune by the
 * retentions once a minute, and push the live view's seconds each second. The timers read the
 * injected clock; tests call `flush`, `claim` and `fold` directly instead of starting them.
 */
export class UsageService implements UsageWrites {
  readonly counter = new UsageCounter();
  readonly live: LiveTraffic;
  private readonly options: UsageServiceOptions;
  private readonly relay: RedisUsageRelay | undefined;
  private readonly claimer: RedisUsageClaimer | undefined;
  private readonly liveRedis: RedisLiveTraffic | undefined;
  private retry: UsageBatch | undefined;
  /** lastFlushAt is when the last flush succeeded (or the service started, before the first). */
  private lastFlushAt: number;
  /** queue serializes flushes, claims and folds: one at a time, in call order. */
  private queue: Promise<unknown> = Promise.resolve();
  private timers: ReturnType<typeof setInterval>[] = [];
  private stopped = false;

  constructor(options: UsageServiceOptions) {
    this.options = options;
    this.lastFlushAt = options.clock.now();
    const { redis, log, traffic } = options;
    if (redis) {
      this.relay = new RedisUsageRelay({
        redis: redis.client,
        prefix: redis.prefix,
        timeoutMs: redis.timeoutMs,
        log,
        minuteLifetimeMs: options.settings.minuteRetentionDays * DAY_MS,
      });
      this.claimer = new RedisUsageClaimer({
        redis: redis.client,
        prefix: redis.prefix,
        timeoutMs: redis.timeoutMs,
        log,
      });
      this.liveRedis = new RedisLiveTraffic(
        redis.client,
        redis.prefix,
        traffic,
        redis.timeoutMs,
        log,
      );
    }
    this.live = this.liveRedis ?? new LocalLiveTraffic(traffic);
    options.metrics.watchUsage({
      lastFlushAgeSeconds: () => Math.max(0, (options.clock.now() - this.lastFlushAt) / 1000),
      pendingRows: () =>
        this.counter.pendingCells +
        (this.relay?.pendingRows ?? 0) +
        (this.retry ? this.retry.rows.length + this.retry.dryRun.length : 0),
    });
  }

  record(...args: Parameters<UsageCounter["record"]>): void {
    this.counter.record(...args);
  }

  recordDryRun(...args: Parameters<UsageCounter["recordDryRun"]>): void {
    this.counter.recordDryRun(...args);
  }

  /** settings are the rollups' settings in force. */
  get settings(): UsageSettings {
    return this.options.settings;
  }

  /** forgetCustomer drops a deleted customer's counts still in memory. */
  forgetCustomer(customerId: number): void {
    this.counter.forgetCustomer(customerId);
  }

  /**
   * flush moves the counts out of memory: into SQLite in one transaction with additive upserts,
   * or, with Redis, to Redis in one pipeline (counts that cannot be sent while Redis is down go
   * to SQLite directly, on an instance that has it). Failed writes are kept and tried again.
   * Resolves with the rows written or pushed.
   */
  flush(): Promise<number> {
    return this.serial(() => this.flushNow());
  }

  /**
   * claim writes the fleet's closed minutes from Redis into SQLite (with Redis and a database
   * only; resolves 0 otherwise). A minute is closed once it ended a flush interval and 5 s ago.
   */
  claim(): Promise<number> {
    return this.serial(() => this.claimNow());
  }

  /** fold folds closed hours and prunes by the retentions. */
  fold(): Promise<FoldResult> {
    return this.serial(async () => this.foldNow());
  }

  /** pushLive sends the live view's last whole seconds to Redis (with Redis only). */
  async pushLive(): Promise<void> {
    await this.liveRedis?.push(this.options.clock.now());
  }

  /** start runs the flush, claim, fold and live push on their timers (unref'd). */
  start(): void {
    if (this.timers.length > 0 || this.stopped) return;
    this.timers = startUsageTimers(this, {
      flushIntervalMs: this.options.settings.flushIntervalMs,
      claims: this.claimer !== undefined,
      folds: true,
      live: this.liveRedis !== undefined,
      log: this.options.log,
    });
  }

  /**
   * stop ends the timers and flushes what memory still holds, once (shutdown: SIGTERM/SIGINT).
   * Resolves when the last flush is done or failed.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.flush().catch((error: unknown) =>
      this.options.log.error("The last usage flush failed", error),
    );
    const waiting = this.relay?.pendingRows ?? 0;
    if (waiting > 0) {
      this.options.log.warn(`${waiting} usage rows could not reach Redis before the stop.`);
    }
  }

  /**
   * halt ends the timers at once and, without Redis, writes memory's counts to SQLite
   * synchronously (a close that cannot wait). With Redis only `stop` can hand them over.
   */
  halt(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    if (this.stopped) return;
    this.stopped = true;
    if (!this.relay) this.writeLocally(this.counter.drain());
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async flushNow(): Promise<number> {
    const batch = this.counter.drain();
    const { metrics, clock } = this.options;
    if (!this.relay) return this.writeLocally(batch);
    const result = await this.relay.push(batch, { handBack: true });
    if (result.pushedRows > 0) metrics.usageFlushed("redis", result.pushedRows);
    if (result.failed) metrics.usageFlushFailed("redis");
    let rows = result.pushedRows;
    if (result.unsent) rows += this.writeLocally(result.unsent);
    if (!result.failed) this.lastFlushAt = clock.now();
    return rows;
  }

  /** writeLocally writes a batch (and any earlier failed one) to SQLite, keeping it on failure. */
  private writeLocally(batch: UsageBatch): number {
    const { db, metrics, log, clock } = this.options;
    const all = this.retry ? mergeBatches([this.retry, batch], MINUTE_MS) : batch;
    this.retry = undefined;
    if (isEmpty(all)) {
      this.lastFlushAt = clock.now();
      return 0;
    }
    try {
      const { rows } = writeBatch(db, all);
      metrics.usageFlushed("sqlite", rows);
      this.lastFlushAt = clock.now();
      return rows;
    } catch (error) {
      metrics.usageFlushFailed("sqlite");
      log.error("Usage flush to SQLite failed; its counts are kept for the next flush", error);
      if (all.rows.length + all.dryRun.length <= MAX_RETRY_ROWS) this.retry = all;
      else log.error(`Dropped ${all.rows.length} usage rows SQLite kept refusing.`);
      return 0;
    }
  }

  private async claimNow(): Promise<number> {
    const { db, clock, metrics, settings } = this.options;
    const claimer = this.claimer;
    if (!claimer?.connected) return 0;
    const now = clock.now();
    const graceMs = settings.flushIntervalMs + 5_000;
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

  private foldNow(): FoldResult {
    const { db, clock, settings } = this.options;
    return foldAndPrune(db, clock.now(), {
      minuteRetentionMs: settings.minuteRetentionDays * DAY_MS,
      hourRetentionMs: settings.hourRetentionDays * DAY_MS,
    });
  }
}
