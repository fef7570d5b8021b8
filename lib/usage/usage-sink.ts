import type { UsageBatch } from "./batch";

/** SinkResult says what a sink did with a flush's counts. */
export interface SinkResult {
  /** rows is how many rows were written or pushed. */
  rows: number;
  /** flushed is true when the flush reached its place: the flush's age starts again from now. */
  flushed: boolean;
}

/**
 * UsageSink is where a UsageFlusher's counts go, one per instance: SQLite (SqliteUsageSink: the
 * full app without Redis) or Redis (RedisUsageSink: an edge, and the full app with Redis).
 */
export interface UsageSink {
  /** write moves one flush's counts out; what it cannot place now it keeps, to try again. */
  write(batch: UsageBatch): Promise<SinkResult>;
  /** pendingRows is how many rows it keeps that have not reached their place yet. */
  readonly pendingRows: number;
  /**
   * halt takes the counts of a close that cannot wait: SQLite writes them synchronously; Redis
   * cannot be waited for, so they are dropped (only a flush, at `stop`, hands counts to it).
   */
  halt(batch: UsageBatch): void;
  /** stopped logs, after the last flush at shutdown, what could not be handed over. */
  stopped(): void;
}
