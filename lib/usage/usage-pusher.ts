import type { Clock } from "@/lib/limiter";
import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import type { Metrics } from "@/lib/metrics";
import { type LiveTraffic, RedisLiveTraffic } from "./live-traffic";
import { RedisUsageRelay } from "./redis-relay";
import { DAY_MS } from "./time";
import type { TrafficLog } from "./traffic-log";
import { UsageCounter, type UsageRecorder } from "./usage-counter";
import type { UsageSettings } from "./usage-settings";
import { startUsageTimers } from "./usage-timers";

/**
 * UsageWrites is the hot path's side of the usage rollups, what every instance has: decisions
 * count into memory (`record`), `flush` moves the counts out, `pushLive` shares the live view's
 * seconds, `stop` hands what memory holds over at shutdown. An edge's is a UsagePusher; the
 * control plane's (a UsageService) also writes SQLite.
 */
export interface UsageWrites extends UsageRecorder {
  readonly counter: UsageCounter;
  /** live is the live traffic view (this instance's, or the fleet's through Redis). */
  readonly live: LiveTraffic;
  /** settings are the rollups' settings in force. */
  readonly settings: UsageSettings;
  /** forgetCustomer drops a deleted customer's counts still in memory. */
  forgetCustomer(customerId: number): void;
  /** flush moves the counts out of memory; resolves with the rows written or pushed. */
  flush(): Promise<number>;
  /** claim writes the fleet's closed minutes into SQLite: resolves 0 where there is none. */
  claim(): Promise<number>;
  /** pushLive sends the live view's last whole seconds to Redis (with Redis only). */
  pushLive(): Promise<void>;
  /** start runs the steps on their timers (unref'd). */
  start(): void;
  /** stop ends the timers and flushes what memory still holds, once. */
  stop(): Promise<void>;
  /** halt ends the timers at once (a close that cannot wait). */
  halt(): void;
}

/** UsagePusherOptions: what an edge's usage needs: no database, Redis always. */
export interface UsagePusherOptions {
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  traffic: TrafficLog;
  settings: UsageSettings;
  /** redis carries the counts to the control plane (see RedisUsageRelay). */
  redis: { client: RedisClient; prefix: string; timeoutMs: number };
}

/**
 * UsagePusher is an edge's usage: decisions count into memory, and every `flushIntervalMs` the
 * counts are pushed to Redis in one pipeline, where the control plane claims the fleet's closed
 * minutes into SQLite, once. Counts Redis cannot take yet wait in the relay and go with the next
 * push. The live view's seconds are pushed each second. It opens no database.
 */
export class UsagePusher implements UsageWrites {
  readonly counter = new UsageCounter();
  readonly live: LiveTraffic;
  private readonly options: UsagePusherOptions;
  private readonly relay: RedisUsageRelay;
  private readonly liveRedis: RedisLiveTraffic;
  /** lastFlushAt is when the last push succeeded (or the pusher started, before the first). */
  private lastFlushAt: number;
  /** queue serializes pushes: one at a time, in call order. */
  private queue: Promise<unknown> = Promise.resolve();
  private timers: ReturnType<typeof setInterval>[] = [];
  private stopped = false;

  constructor(options: UsagePusherOptions) {
    this.options = options;
    this.lastFlushAt = options.clock.now();
    const { redis, log, traffic } = options;
    this.relay = new RedisUsageRelay({
      redis: redis.client,
      prefix: redis.prefix,
      timeoutMs: redis.timeoutMs,
      log,
      minuteLifetimeMs: options.settings.minuteRetentionDays * DAY_MS,
    });
    this.liveRedis = new RedisLiveTraffic(
      redis.client,
      redis.prefix,
      traffic,
      redis.timeoutMs,
      log,
    );
    this.live = this.liveRedis;
    options.metrics.watchUsage({
      lastFlushAgeSeconds: () => Math.max(0, (options.clock.now() - this.lastFlushAt) / 1000),
      pendingRows: () => this.counter.pendingCells + this.relay.pendingRows,
    });
  }

  record(...args: Parameters<UsageCounter["record"]>): void {
    this.counter.record(...args);
  }

  recordDryRun(...args: Parameters<UsageCounter["recordDryRun"]>): void {
    this.counter.recordDryRun(...args);
  }

  get settings(): UsageSettings {
    return this.options.settings;
  }

  forgetCustomer(customerId: number): void {
    this.counter.forgetCustomer(customerId);
  }

  /** flush pushes the counts to Redis in one pipeline; resolves with the rows pushed. */
  flush(): Promise<number> {
    const run = this.queue.then(
      () => this.pushNow(),
      () => this.pushNow(),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** claim resolves 0: an edge claims nothing, the control plane claims the fleet's minutes. */
  async claim(): Promise<number> {
    return 0;
  }

  async pushLive(): Promise<void> {
    await this.liveRedis.push(this.options.clock.now());
  }

  /** start runs the push and the live push on their timers (unref'd). */
  start(): void {
    if (this.timers.length > 0 || this.stopped) return;
    const steps = {
      flush: () => this.flush(),
      claim: () => this.claim(),
      fold: async () => undefined,
      pushLive: () => this.pushLive(),
    };
    this.timers = startUsageTimers(steps, {
      flushIntervalMs: this.options.settings.flushIntervalMs,
      claims: false,
      folds: false,
      live: true,
      log: this.options.log,
    });
  }

  /**
   * stop ends the timers and pushes what memory still holds, once (shutdown: SIGTERM/SIGINT).
   * Resolves when the last push is done or failed.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.clearTimers();
    await this.flush().catch((error: unknown) =>
      this.options.log.error("The last usage flush failed", error),
    );
    const waiting = this.relay.pendingRows;
    if (waiting > 0) {
      this.options.log.warn(`${waiting} usage rows could not reach Redis before the stop.`);
    }
  }

  /** halt ends the timers at once: only `stop` can hand the counts over. */
  halt(): void {
    this.clearTimers();
    this.stopped = true;
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  private async pushNow(): Promise<number> {
    const { metrics, clock } = this.options;
    const result = await this.relay.push(this.counter.drain(), { handBack: false });
    if (result.pushedRows > 0) metrics.usageFlushed("redis", result.pushedRows);
    if (result.failed) metrics.usageFlushFailed("redis");
    else this.lastFlushAt = clock.now();
    return result.pushedRows;
  }
}
