import { Cluster } from "ioredis";
import { type Clock, type Limit, systemClock } from "@/lib/limiter";
import type { Buckets, RedisClient } from "./buckets";
import { SHADOW } from "./script";
import type { Flight } from "./script-run";
import { ScriptRunner } from "./script-runner";
import type { OnUnanswered } from "./unanswered";

/**
 * ScriptReply is one decision's part of a script reply: `reply` holds packed doubles, the
 * execution time (ms) at byte 0, this decision's outcome (1 allowed, 0 refused, -1 a key that
 * is not a bucket) at `offset`, then the units each of its buckets held before the decision.
 */
export interface ScriptReply {
  reply: Buffer;
  offset: number;
}

/**
 * ReadReply reads what a decision of `n` tokens over `buckets` (taking them if `take`) resolves
 * with from its part of a script reply (see ScriptReply). It may throw: that decision alone then
 * rejects with the error.
 */
export type ReadReply<T> = (
  buckets: Buckets,
  reply: Buffer,
  offset: number,
  n: number,
  take: boolean,
) => T;

/** partOf reads a decision's part of the reply as it is. */
const partOf: ReadReply<ScriptReply> = (_buckets, reply, offset) => ({ reply, offset });

/** MAX_BATCH is the most decisions one script run takes: it holds Redis for their duration. */
export const MAX_BATCH = 64;

/** Pending is a decision waiting for its batch's reply: answered from its part, or failed. */
interface Pending extends BatchedDecision {
  /** settle answers the decision from its part of `reply`, at `offset`. */
  settle(reply: Buffer, offset: number): void;
  reject(error: unknown): void;
}

/** Queued is one decision waiting for its batch's reply, and how it reads and answers it. */
class Queued<T> implements Pending {
  constructor(
    readonly buckets: Buckets,
    readonly n: number,
    readonly take: boolean,
    readonly shadow: boolean,
    private readonly read: ReadReply<T>,
    private readonly resolve: (value: T) => void,
    readonly reject: (error: unknown) => void,
  ) {}

  settle(reply: Buffer, offset: number): void {
    let value: T;
    try {
      value = this.read(this.buckets, reply, offset, this.n, this.take);
    } catch (error) {
      this.reject(error);
      return;
    }
    this.resolve(value);
  }
}

/**
 * Batch is one script run's decisions, as the ScriptRunner sends them (a Flight): it packs them
 * once, and hands each decision its part of the reply, or the run's error.
 */
class Batch implements Flight {
  readonly keys: string[];
  readonly args: Buffer;
  readonly decisions: number;

  constructor(
    private readonly queued: readonly Pending[],
    at: number,
    readonly deadline: number,
  ) {
    const { keys, args } = encodeBatch(queued, at);
    this.keys = keys;
    this.args = args;
    let decisions = 0;
    for (const q of queued) if (!q.shadow) decisions++;
    this.decisions = decisions;
  }

  charged(reply: Buffer): number {
    return chargedIn(this.queued, reply);
  }

  settle(reply: Buffer): void {
    let offset = 8;
    for (const q of this.queued) {
      q.settle(reply, offset);
      offset += 8 * (1 + q.buckets.length);
    }
  }

  fail(error: unknown): void {
    for (const q of this.queued) q.reject(error);
  }
}

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

/**
 * chargedIn counts the decisions of `batch` (shadows aside: they ride with their decision) that
 * took tokens, by the script's `reply`.
 */
function chargedIn(batch: readonly BatchedDecision[], reply: Buffer): number {
  let charged = 0;
  let offset = 8;
  for (const queued of batch) {
    if (queued.take && !queued.shadow && queued.buckets.length > 0) {
      if (reply.readDoubleBE(offset) === 1) charged++;
    }
    offset += 8 * (1 + queued.buckets.length);
  }
  return charged;
}

/**
 * BatchedDecision is what DECIDE needs of one decision: its buckets, tokens, whether to take,
 * and whether it is the shadow of the decision before it (decided only if that one allows).
 */
export interface BatchedDecision {
  buckets: Buckets;
  n: number;
  take: boolean;
  shadow?: boolean;
}

/**
 * encodeBatch lists a batch's bucket keys once each and packs DECIDE's argument: the time `at`
 * (whole ms, NaN for the server's clock), the deadline by the server's clock (ms, Infinity by
 * default: none; the ScriptRunner writes the real one), then per decision its signed bucket
 * count and per bucket the key's index, the limit's scale and period, and the units wanted.
 */
export function encodeBatch(
  batch: readonly BatchedDecision[],
  at: number,
  redisDeadline = Number.POSITIVE_INFINITY,
): { keys: string[]; args: Buffer } {
  // One decision's keys are distinct already: they are the script's KEYS as they are.
  const single = batch.length === 1 ? batch[0]?.buckets.redisKeys : undefined;
  const keys: string[] = single ?? [];
  const index = single ? undefined : new Map<string, number>();
  let doubles = 2;
  for (const queued of batch) doubles += 1 + 4 * queued.buckets.length;
  const args = Buffer.allocUnsafe(8 * doubles);
  let offset = args.writeDoubleBE(at, 0);
  offset = args.writeDoubleBE(redisDeadline, offset);
  for (const { buckets, n, take, shadow } of batch) {
    const count = take ? buckets.length : -buckets.length;
    offset = args.writeDoubleBE(shadow ? count + SHADOW : count, offset);
    for (let i = 0; i < buckets.length; i++) {
      let position = i + 1;
      if (index) {
        const redisKey = buckets.redisKeys[i] as string;
        const known = index.get(redisKey);
        if (known === undefined) {
          position = keys.push(redisKey);
          index.set(redisKey, position);
        } else {
          position = known;
        }
      }
      const limit = buckets.limits[i] as Limit;
      offset = args.writeDoubleBE(position, offset);
      offset = args.writeDoubleBE(limit.scale, offset);
      offset = args.writeDoubleBE(limit.periodMs, offset);
      offset = args.writeDoubleBE(n * limit.tokenUnits, offset);
    }
  }
  return { keys, args };
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
