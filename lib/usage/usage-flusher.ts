import type { Clock } from "@/lib/limiter";
import type { Logger } from "@/lib/log";
import type { UsageFlushHealth } from "@/lib/metrics";
import { SerialQueue } from "./serial-queue";
import { UsageCounter, type UsageRecorder } from "./usage-counter";
import type { UsageSink } from "./usage-sink";

/** UsageFlusherOptions: where the counts go, and the clock that dates a flush. */
export interface UsageFlusherOptions {
  /** sink is the one place flushes send the counts to: SQLite or Redis. */
  sink: UsageSink;
  clock: Clock;
  log: Logger;
}

/**
 * UsageFlusher is the hot path's side of the usage rollups, on every instance: decisions count
 * into memory (`record`, a UsageCounter), and `flush` (every `flushIntervalMs`, on UsageTimers)
 * moves the counts to its one sink: SQLite (SqliteUsageSink) or Redis (RedisUsageSink). `stop`
 * flushes once more at shutdown; `halt` hands memory's counts to the sink at once. It reports
 * the flush's health to the metrics (UsageFlushHealth).
 */
export class UsageFlusher implements UsageRecorder, UsageFlushHealth {
  private readonly counter = new UsageCounter();
  private readonly options: UsageFlusherOptions;
  /** queue serializes flushes: one at a time, in call order. */
  private readonly queue = new SerialQueue();
  /** lastFlushAt is when the last flush succeeded (or the flusher was made, before the first). */
  private lastFlushAt: number;
  private stopped = false;

  constructor(options: UsageFlusherOptions) {
    this.options = options;
    this.lastFlushAt = options.clock.now();
  }

  record(...args: Parameters<UsageCounter["record"]>): void {
    this.counter.record(...args);
  }

  recordDryRun(...args: Parameters<UsageCounter["recordDryRun"]>): void {
    this.counter.recordDryRun(...args);
  }

  /** forgetCustomer drops a deleted customer's counts still in memory. */
  forgetCustomer(customerId: number): void {
    this.counter.forgetCustomer(customerId);
  }

  lastFlushAgeSeconds(): number {
    return Math.max(0, (this.options.clock.now() - this.lastFlushAt) / 1000);
  }

  pendingRows(): number {
    return this.counter.pendingCells + this.options.sink.pendingRows;
  }

  /**
   * flush moves the counts out of memory to the sink (see SqliteUsageSink and RedisUsageSink for
   * what each keeps when it fails, to try again). Resolves with the rows written or pushed.
   */
  flush(): Promise<number> {
    return this.queue.run(async () => {
      const result = await this.options.sink.write(this.counter.drain());
      if (result.flushed) this.lastFlushAt = this.options.clock.now();
      return result.rows;
    });
  }

  /**
   * stop flushes what memory still holds, once (shutdown: SIGTERM/SIGINT), then lets the sink
   * say what it could not hand over. Resolves when the last flush is done or failed.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.flush().catch((error: unknown) =>
      this.options.log.error("The last usage flush failed", error),
    );
    this.options.sink.stopped();
  }

  /**
   * halt hands memory's counts to the sink at once (a close that cannot wait: SQLite writes them
   * synchronously; with Redis only `stop` can hand them over). Nothing after `stop`.
   */
  halt(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.options.sink.halt(this.counter.drain());
  }
}
