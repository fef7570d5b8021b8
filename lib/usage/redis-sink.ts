import type { Logger } from "@/lib/log";
import type { Metrics } from "@/lib/metrics";
import type { UsageBatch } from "./batch";
import type { RedisUsageRelay } from "./redis-relay";
import type { SinkResult, UsageSink } from "./usage-sink";

/**
 * UnpushedCounts is what a RedisUsageSink does with counts it could not send to Redis (Redis did
 * not answer): keep them queued in the relay for the next push (KEEP_FOR_NEXT_PUSH, an edge's:
 * it has no database), or write them elsewhere now (the full app's SqliteUsageSink).
 */
export interface UnpushedCounts {
  /**
   * takesUnsent is true when counts never sent are taken out of the relay and given to
   * `writeNow`; false leaves them queued in the relay, sent with the next push.
   */
  readonly takesUnsent: boolean;
  /** writeNow writes counts never sent to Redis elsewhere, now (called with `takesUnsent` only). */
  writeNow(batch: UsageBatch): SinkResult;
  /** pendingRows is how many rows it keeps that have not reached their place yet. */
  readonly pendingRows: number;
}

/** KEEP_FOR_NEXT_PUSH keeps counts Redis could not be sent in the relay, for the next push. */
export const KEEP_FOR_NEXT_PUSH: UnpushedCounts = {
  takesUnsent: false,
  writeNow: () => ({ rows: 0, flushed: false }),
  pendingRows: 0,
};

/** RedisUsageSinkOptions: the relay that carries the counts, and what becomes of unsent ones. */
export interface RedisUsageSinkOptions {
  relay: RedisUsageRelay;
  /** unpushed decides what becomes of counts Redis could not be sent (required: no default). */
  unpushed: UnpushedCounts;
  metrics: Metrics;
  log: Logger;
}

/**
 * RedisUsageSink pushes counts to Redis for the fleet, through a RedisUsageRelay (one pipeline
 * per flush; a chunk whose acknowledgement was lost is sent again and counts once), where the
 * full app's UsageClaims claims the fleet's closed minutes into SQLite, once. The same sink
 * serves an edge and the full app with Redis; they differ only by `unpushed`. A flush counts as
 * done when Redis acknowledged everything, or when the counts it could not send were written
 * elsewhere.
 */
export class RedisUsageSink implements UsageSink {
  private readonly options: RedisUsageSinkOptions;

  constructor(options: RedisUsageSinkOptions) {
    this.options = options;
  }

  get pendingRows(): number {
    return this.options.relay.pendingRows + this.options.unpushed.pendingRows;
  }

  async write(batch: UsageBatch): Promise<SinkResult> {
    const { relay, unpushed, metrics } = this.options;
    const result = await relay.push(batch, { handBack: unpushed.takesUnsent });
    if (result.pushedRows > 0) metrics.usageFlushed("redis", result.pushedRows);
    if (result.failed) metrics.usageFlushFailed("redis");
    const written = result.unsent ? unpushed.writeNow(result.unsent) : { rows: 0, flushed: false };
    return { rows: result.pushedRows + written.rows, flushed: !result.failed || written.flushed };
  }

  /** halt drops the counts: Redis cannot be waited for in a close that cannot wait. */
  halt(_batch: UsageBatch): void {}

  stopped(): void {
    const waiting = this.options.relay.pendingRows;
    if (waiting > 0) {
      this.options.log.warn(`${waiting} usage rows could not reach Redis before the stop.`);
    }
  }
}
