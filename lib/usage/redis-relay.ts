import { randomUUID } from "node:crypto";
import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import { mergeBatches, type UsageBatch } from "./batch";
import { batchOfHash, incrementsOf } from "./redis-codec";
import { PUSH } from "./redis-scripts";
import { DAY_MS, MINUTE_MS } from "./time";
import { withTimeout } from "./with-timeout";

/** RedisRelayOptions configure how an instance shares its usage counts through Redis. */
export interface RedisRelayOptions {
  redis: RedisClient;
  /** prefix starts every key ("rk" by default): the keys are "<prefix>:{usage}:…". */
  prefix: string;
  /** timeoutMs bounds each round trip to Redis. */
  timeoutMs: number;
  log: Logger;
  /** minuteLifetimeMs: a minute's hash nobody claims expires after this long (7 days). */
  minuteLifetimeMs?: number;
}

/** MAX_INCREMENTS_PER_CHUNK bounds one script run, so Redis serves decisions in between. */
const MAX_INCREMENTS_PER_CHUNK = 2_000;
/** MAX_QUEUED_CHUNKS bounds what waits for Redis in memory (then the oldest go). */
const MAX_QUEUED_CHUNKS = 5_000;
/** MAX_CHUNKS_PER_PUSH bounds one pipeline. */
const MAX_CHUNKS_PER_PUSH = 200;
/** MARKER_LIFETIME_MS: a chunk retried after this long could count twice; far beyond any retry. */
const MARKER_LIFETIME_MS = DAY_MS;

/** Chunk is part of a flush's counts, pushed once by its id. */
interface Chunk {
  id: string;
  starts: number[];
  /** args are the PUSH script's triples: minute index, field, increment. */
  args: (string | number)[];
  /** batch is the chunk's counts, kept to write them elsewhere if they are never sent. */
  batch: UsageBatch;
  rows: number;
  /** sent is true once the chunk went out: from then on only Redis may count it. */
  sent: boolean;
}

/** PushResult says what a push did with the counts it was given and those still waiting. */
export interface PushResult {
  /** pushedRows is how many rows Redis acknowledged. */
  pushedRows: number;
  /** unsent holds counts never sent to Redis (it did not answer): safe to write elsewhere. */
  unsent: UsageBatch | null;
  /** failed is true when chunks wait for Redis: sent ones are retried by their ids. */
  failed: boolean;
  /** dropped is how many rows were given up because too much waited. */
  droppedRows: number;
}

/**
 * RedisUsageRelay carries an instance's counts to Redis (RedisUsageClaimer carries the fleet's
 * closed minutes from there to SQLite).
 *
 * Push: each flush's counts go out as chunks of HINCRBYs into one hash per minute, all chunks in
 * one pipeline (one round trip); a chunk applies at most once (its marker), so a chunk whose
 * acknowledgement was lost is simply sent again. Counts that could not be sent at all (Redis not
 * connected) are handed back, for an instance with a database to write itself.
 *
 */
export class RedisUsageRelay {
  private readonly redis: RedisClient;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly log: Logger;
  private readonly minuteLifetimeMs: number;
  private queue: Chunk[] = [];

  constructor(options: RedisRelayOptions) {
    this.redis = options.redis;
    this.base = `${options.prefix}:{usage}`;
    this.timeoutMs = options.timeoutMs;
    this.log = options.log;
    this.minuteLifetimeMs = options.minuteLifetimeMs ?? 7 * DAY_MS;
  }

  /** pendingRows is how many rows wait to be pushed (or retried). */
  get pendingRows(): number {
    return this.queue.reduce((sum, chunk) => sum + chunk.rows, 0);
  }

  /** connected tells whether Redis can be sent commands now. */
  get connected(): boolean {
    return this.redis.status === "ready";
  }

  /**
   * push sends a flush's counts, with the chunks still waiting from earlier flushes, in one
   * pipeline. After a push that got no acknowledgement, the chunks it sent are sent again first,
   * alone (they may or may not have counted: their markers decide), and fresh chunks wait until
   * they are acknowledged; with `handBack`, the fresh ones are handed back meanwhile (never sent,
   * so never counted by Redis), for an instance with a database to write itself. See PushResult.
   */
  async push(batch: UsageBatch, options: { handBack: boolean }): Promise<PushResult> {
    this.enqueue(batch);
    const droppedRows = this.bound();
    const result: PushResult = { pushedRows: 0, unsent: null, failed: false, droppedRows };
    const uncertain = this.queue.filter((c) => c.sent);
    if (uncertain.length > 0 || !this.connected) {
      const settled = this.connected && (await this.send(uncertain, result));
      if (!settled) {
        result.failed = true;
        if (options.handBack) result.unsent = this.takeUnsent();
        return result;
      }
    }
    const fresh = this.queue.filter((c) => !c.sent);
    if (fresh.length > 0 && !(await this.send(fresh, result))) result.failed = true;
    return result;
  }

  /**
   * send pushes chunks (MAX_CHUNKS_PER_PUSH at most) in one pipeline, drops those Redis
   * acknowledged from the queue, adds their rows to `result`, and returns whether all were.
   */
  private async send(chunks: Chunk[], result: PushResult): Promise<boolean> {
    const batch = chunks.slice(0, MAX_CHUNKS_PER_PUSH);
    if (batch.length === 0) return true;
    const pipeline = this.redis.pipeline();
    for (const chunk of batch) {
      const keys = [
        `${this.base}:batch:${chunk.id}`,
        `${this.base}:open`,
        ...chunk.starts.map((s) => `${this.base}:m:${s}`),
      ];
      pipeline.eval(
        PUSH,
        keys.length,
        ...keys,
        MARKER_LIFETIME_MS,
        this.minuteLifetimeMs,
        chunk.starts.length,
        ...chunk.starts,
        ...chunk.args,
      );
      chunk.sent = true;
    }
    let replies: [Error | null, unknown][] | null;
    try {
      replies = await withTimeout(pipeline.exec(), this.timeoutMs * 5, "Usage push");
    } catch (error) {
      this.log.warn(`Usage push to Redis failed (${String(error)}); it is sent again later.`);
      return false;
    }
    const done = new Set<Chunk>();
    batch.forEach((chunk, i) => {
      const [error] = replies?.[i] ?? [new Error("no reply")];
      if (!error) {
        done.add(chunk);
        result.pushedRows += chunk.rows;
      }
    });
    this.queue = this.queue.filter((c) => !done.has(c));
    return done.size === chunks.length;
  }

  /** takeUnsent removes the chunks never sent from the queue and returns their counts. */
  private takeUnsent(): UsageBatch | null {
    const unsent = this.queue.filter((c) => !c.sent);
    if (unsent.length === 0) return null;
    this.queue = this.queue.filter((c) => c.sent);
    return mergeBatches(
      unsent.map((c) => c.batch),
      MINUTE_MS,
    );
  }

  private enqueue(batch: UsageBatch): void {
    const increments = incrementsOf(batch);
    for (let i = 0; i < increments.length; i += MAX_INCREMENTS_PER_CHUNK) {
      const part = increments.slice(i, i + MAX_INCREMENTS_PER_CHUNK);
      const starts: number[] = [];
      const args: (string | number)[] = [];
      for (const inc of part) {
        let index = starts.indexOf(inc.startMs);
        if (index < 0) index = starts.push(inc.startMs) - 1;
        args.push(index + 1, inc.field, inc.by);
      }
      const own = batchOfIncrements(part);
      this.queue.push({
        id: randomUUID(),
        starts,
        args,
        batch: own,
        rows: own.rows.length + own.dryRun.length,
        sent: false,
      });
    }
  }

  /** bound drops the oldest chunks past MAX_QUEUED_CHUNKS and returns the rows dropped. */
  private bound(): number {
    const excess = this.queue.length - MAX_QUEUED_CHUNKS;
    if (excess <= 0) return 0;
    const dropped = this.queue.splice(0, excess);
    const rows = dropped.reduce((sum, chunk) => sum + chunk.rows, 0);
    this.log.error(`Dropped ${rows} usage counts waiting for Redis for too long.`);
    return rows;
  }
}

/** batchOfIncrements turns increments back into a batch (a chunk's own counts). */
function batchOfIncrements(increments: readonly { startMs: number; field: string; by: number }[]) {
  const byMinute = new Map<number, Record<string, string>>();
  for (const inc of increments) {
    const hash = byMinute.get(inc.startMs) ?? {};
    hash[inc.field] = String(Number(hash[inc.field] ?? 0) + inc.by);
    byMinute.set(inc.startMs, hash);
  }
  return mergeBatches(
    [...byMinute].map(([startMs, hash]) => batchOfHash(startMs, hash)),
    MINUTE_MS,
  );
}
