import type { Db } from "@/db/client";
import type { Logger } from "@/lib/log";
import type { Metrics } from "@/lib/metrics";
import { isEmpty, mergeBatches, type UsageBatch } from "./batch";
import type { UnpushedCounts } from "./redis-sink";
import { writeBatch } from "./sqlite-writer";
import { MINUTE_MS } from "./time";
import type { SinkResult, UsageSink } from "./usage-sink";

/** MAX_RETRY_ROWS bounds the rows kept in memory while SQLite refuses them. */
const MAX_RETRY_ROWS = 1_000_000;

/** SqliteUsageSinkOptions: the database the rollups live in, and what reports on the writes. */
export interface SqliteUsageSinkOptions {
  db: Db;
  metrics: Metrics;
  log: Logger;
}

/**
 * SqliteUsageSink writes counts into the rollups in SQLite, one transaction of additive upserts
 * per write (see writeBatch). A write SQLite refuses is kept (MAX_RETRY_ROWS rows at most) and
 * added to the next one. It is the full app's sink without Redis, and with Redis what its
 * RedisUsageSink does with counts Redis could not be sent (UnpushedCounts): write them now.
 */
export class SqliteUsageSink implements UsageSink, UnpushedCounts {
  /** takesUnsent: counts never sent to Redis are written here at once. */
  readonly takesUnsent = true;
  private readonly options: SqliteUsageSinkOptions;
  private retry: UsageBatch | undefined;

  constructor(options: SqliteUsageSinkOptions) {
    this.options = options;
  }

  get pendingRows(): number {
    return this.retry ? this.retry.rows.length + this.retry.dryRun.length : 0;
  }

  async write(batch: UsageBatch): Promise<SinkResult> {
    return this.writeNow(batch);
  }

  /** halt writes the counts synchronously (with any kept from a refused write). */
  halt(batch: UsageBatch): void {
    this.writeNow(batch);
  }

  /** stopped says nothing: what SQLite refused at the last flush was logged by that flush. */
  stopped(): void {}

  /**
   * writeNow writes a batch (and any earlier refused one) to SQLite, synchronously, keeping it
   * on failure. `flushed` is true once nothing is kept.
   */
  writeNow(batch: UsageBatch): SinkResult {
    const { db, metrics, log } = this.options;
    const all = this.retry ? mergeBatches([this.retry, batch], MINUTE_MS) : batch;
    this.retry = undefined;
    if (isEmpty(all)) return { rows: 0, flushed: true };
    try {
      const { rows } = writeBatch(db, all);
      metrics.usageFlushed("sqlite", rows);
      return { rows, flushed: true };
    } catch (error) {
      metrics.usageFlushFailed("sqlite");
      log.error("Usage flush to SQLite failed; its counts are kept for the next flush", error);
      if (all.rows.length + all.dryRun.length <= MAX_RETRY_ROWS) this.retry = all;
      else log.error(`Dropped ${all.rows.length} usage rows SQLite kept refusing.`);
      return { rows: 0, flushed: false };
    }
  }
}
