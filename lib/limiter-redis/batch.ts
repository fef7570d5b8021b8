import { Cluster } from "ioredis";
import { type Clock, systemClock } from "@/lib/limiter";
import {
  Batch,
  type Pending,
  partOf,
  Queued,
  type ReadReply,
  type ScriptReply,
} from "./batch-flight";
import type { Buckets, RedisClient } from "./buckets";
import { ScriptRunner } from "./script-runner";
import type { OnUnanswered } from "./unanswered";

/** MAX_BATCH is the most decisions one script run takes: it holds Redis for their duration. */
export const MAX_BATCH = 64;

/** DecisionBatcherOptions configure a client's DecisionBatcher. */
export interface DecisionBatcherOptions {
  /**
   * clock is this instance's clock for deadlines (ms; monotonic `systemClock` by default). It is
   * not the decisions' clock: a deadline is real time, whatever time the buckets are decided at.
   */
  clock?: Clock;
  /**
   * onUnanswered hears of the decisions whose reply came after their callers stopped waiting,
   * and of what became of them (see UnansweredOutcome).
   */
  onUnanswered?: OnUnanswered;
}

/**
 * DecisionBatcher sends decisions to Redis, one script run (one round trip) for all the
 * decisions made on its client in the same tick, up to MAX_BATCH: concurrent decisions share a
 * command, a clock reading and the script's fixed cost, and a lone decision leaves on the next
 * tick, as ioredis's auto-pipelining does. Decisions at different injected times go in
 * different runs. On a Redis Cluster each decision runs alone (a script's keys must share a
 * slot); enable auto-pipelining on the Cluster client to share writes instead.
 *
 * A decision with a timeout must start running in Redis within it: a batch shares the earliest
 * deadline of its decisions, counted from when the first was made, and the script refuses to
 * run past it by Redis's clock (see ScriptRunner). A run that comes later, from a socket that
 * held it while Redis hung or the link was cut, takes nothing.
 */
export class DecisionBatcher {
  readonly redis: RedisClient;
  private queue: Pending[] = [];
  /** queuedAt is the queue's execution time (ms), or NaN for the server's clock. */
  private queuedAt = Number.NaN;
  /** queueDeadline is when the queue must start running, on `clock` (ms; Infinity: never late). */
  private queueDeadline = Number.POSITIVE_INFINITY;
  /** queueStart is when the queue's first decision with a timeout came, on `clock` (NaN: none). */
  private queueStart = Number.NaN;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly clock: Clock;
  private readonly runner: ScriptRunner;

  constructor(redis: RedisClient, options: DecisionBatcherOptions = {}) {
    this.redis = redis;
    this.maxBatch = redis instanceof Cluster ? 1 : MAX_BATCH;
    this.clock = options.clock ?? systemClock;
    this.runner = new ScriptRunner(redis, this.clock, options.onUnanswered);
  }

  /**
   * run decides `n` tokens over `buckets` at `at` (whole ms, or NaN for the server's clock),
   * taking them when `take` is set, and resolves with what `read` reads of the decision's part
   * of the reply; the decision must reach Redis within `timeoutMs` (Infinity: no deadline).
   */
  run<T>(
    buckets: Buckets,
    n: number,
    take: boolean,
    at: number,
    timeoutMs: number,
    read: ReadReply<T>,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.enqueue(
        new Queued(buckets, n, take, false, read, resolve, reject),
        undefined,
        at,
        timeoutMs,
      );
    });
  }

  /**
   * runWithShadow is `run` (taking) followed, in the same script run, by a shadow decision over
   * `shadowBuckets`, decided only when the first allows; it resolves with both parts of the reply.
   */
  runWithShadow(
    buckets: Buckets,
    shadowBuckets: Buckets,
    n: number,
    at: number,
    timeoutMs = Number.POSITIVE_INFINITY,
  ): Promise<[ScriptReply, ScriptReply]> {
    let first: ScriptReply | undefined;
    return new Promise((resolve, reject) => {
      this.enqueue(
        new Queued(buckets, n, true, false, partOf, (part) => (first = part), reject),
        new Queued(
          shadowBuckets,
          n,
          true,
          true,
          partOf,
          (part) => resolve([first as ScriptReply, part]),
          reject,
        ),
        at,
        timeoutMs,
      );
    });
  }

  /**
   * redisTime estimates the Redis server's time now (whole ms since the epoch) for a decision
   * over `buckets`, as the deadlines do (see ScriptRunner.redisTimeOf): what the decision's
   * quota periods are computed at when Redis's clock decides.
   */
  redisTime(buckets: Buckets): number | Promise<number> {
    const first = buckets.quotaRedisKeys[0] ?? buckets.redisKeys[0];
    return this.runner.redisTimeOf(first === undefined ? [] : [first]);
  }

  /**
   * compareClocks learns the offset between this instance's clock and Redis's now (see
   * ScriptRunner.compareClocks), so that the first decisions with a timeout go out at once.
   */
  compareClocks(): Promise<void> {
    return this.runner.compareClocks();
  }

  /** enqueue adds a decision, and its shadow if any, which must share one script run, in order. */
  private enqueue(
    decision: Pending,
    shadow: Pending | undefined,
    at: number,
    timeoutMs: number,
  ): void {
    const count = shadow ? 2 : 1;
    if (this.queue.length > 0 && !Object.is(at, this.queuedAt)) this.flush();
    if (this.queue.length > 0 && this.queue.length + count > this.maxBatch) this.flush();
    this.queue.push(decision);
    if (shadow) this.queue.push(shadow);
    this.queuedAt = at;
    if (timeoutMs !== Number.POSITIVE_INFINITY) {
      // One clock reading per batch: the earliest, so the deadline is never later than any's.
      if (Number.isNaN(this.queueStart)) this.queueStart = this.clock.now();
      const deadline = this.queueStart + timeoutMs;
      if (deadline < this.queueDeadline) this.queueDeadline = deadline;
    }
    if (this.queue.length >= this.maxBatch) {
      this.flush();
    } else if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.flushScheduled);
    }
  }

  private readonly flushScheduled = (): void => {
    this.scheduled = false;
    if (this.queue.length > 0) this.flush();
  };

  private flush(): void {
    const batch = new Batch(this.queue, this.queuedAt, this.queueDeadline);
    this.queue = [];
    this.queueDeadline = Number.POSITIVE_INFINITY;
    this.queueStart = Number.NaN;
    this.runner.run(batch);
  }
}

const batchers = new WeakMap<RedisClient, DecisionBatcher>();

/**
 * batcherOf returns the client's default DecisionBatcher (the system clock, no listener), so
 * every limiter on it that is given no batcher of its own shares batches.
 */
export function batcherOf(redis: RedisClient): DecisionBatcher {
  let batcher = batchers.get(redis);
  if (!batcher) {
    batcher = new DecisionBatcher(redis);
    batchers.set(redis, batcher);
  }
  return batcher;
}
