import { Cluster, type Redis } from "ioredis";
import type { Limit } from "@/lib/limiter";
import { DECIDE, DECIDE_SHA, SHADOW } from "./script";

/**
 * RedisClient is the connection the limiter runs its script on: one Redis server (or a primary
 * with replicas), or a Redis Cluster.
 */
export type RedisClient = Redis | Cluster;

/** RedisKey is what a key func of the Redis limiter may return: it becomes part of a Redis key. */
export type RedisKey = string | number;

/**
 * Buckets is a decision's working set: each bucket's limit, key and Redis key. Equal limits of
 * the same limiter for the same key appear once.
 */
export class Buckets {
  readonly limits: Limit[] = [];
  readonly keys: RedisKey[] = [];
  readonly redisKeys: string[] = [];

  get length(): number {
    return this.limits.length;
  }

  add(prefix: string, limit: Limit, key: RedisKey): void {
    const redisKey = bucketKey(prefix, key, limit);
    if (this.redisKeys.includes(redisKey)) return;
    this.limits.push(limit);
    this.keys.push(key);
    this.redisKeys.push(redisKey);
  }

  /** copy appends the `i`-th bucket of `other` as it is. */
  copy(other: Buckets, i: number): void {
    this.limits.push(other.limits[i] as Limit);
    this.keys.push(other.keys[i] as RedisKey);
    this.redisKeys.push(other.redisKeys[i] as string);
  }
}

/**
 * bucketKey names one bucket in Redis: `<prefix>:{<key>}:<count>/<periodMs>`. The braces make
 * the key a Redis Cluster hash tag, so every bucket of one key lives in one slot and a decision
 * over them runs as one script.
 */
export function bucketKey(prefix: string, key: RedisKey, limit: Limit): string {
  return `${prefix}:{${key}}:${limit.id}`;
}

/**
 * ScriptReply is one decision's part of a script reply: `reply` holds packed doubles, the
 * execution time (ms) at byte 0, this decision's outcome (1 allowed, 0 refused, -1 a key that
 * is not a bucket) at `offset`, then the units each of its buckets held before the decision.
 */
export interface ScriptReply {
  reply: Buffer;
  offset: number;
}

/** MAX_BATCH is the most decisions one script run takes: it holds Redis for their duration. */
export const MAX_BATCH = 64;

interface Queued extends BatchedDecision {
  resolve: (reply: ScriptReply) => void;
  reject: (error: unknown) => void;
}

/**
 * DecisionBatcher sends decisions to Redis, one script run (one round trip) for all the
 * decisions made on its client in the same tick, up to MAX_BATCH: concurrent decisions share a
 * command, a clock reading and the script's fixed cost, and a lone decision leaves on the next
 * tick, as ioredis's auto-pipelining does. Decisions at different injected times go in
 * different runs. On a Redis Cluster each decision runs alone (a script's keys must share a
 * slot); enable auto-pipelining on the Cluster client to share writes instead.
 */
export class DecisionBatcher {
  private queue: Queued[] = [];
  /** queuedAt is the queue's execution time (ms), or NaN for the server's clock. */
  private queuedAt = Number.NaN;
  private scheduled = false;
  private readonly maxBatch: number;

  constructor(private readonly redis: RedisClient) {
    this.maxBatch = redis instanceof Cluster ? 1 : MAX_BATCH;
  }

  /**
   * run decides `n` tokens over `buckets` at `at` (whole ms, or NaN for the server's clock),
   * taking them when `take` is set, and resolves with the decision's part of the reply.
   */
  run(buckets: Buckets, n: number, take: boolean, at: number): Promise<ScriptReply> {
    return new Promise((resolve, reject) => {
      this.enqueue([{ buckets, n, take, shadow: false, resolve, reject }], at);
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
  ): Promise<[ScriptReply, ScriptReply]> {
    let first: ScriptReply | undefined;
    return new Promise((resolve, reject) => {
      this.enqueue(
        [
          {
            buckets,
            n,
            take: true,
            shadow: false,
            resolve: (reply) => {
              first = reply;
            },
            reject,
          },
          {
            buckets: shadowBuckets,
            n,
            take: true,
            shadow: true,
            resolve: (reply) => resolve([first as ScriptReply, reply]),
            reject,
          },
        ],
        at,
      );
    });
  }

  /** enqueue adds decisions that must share one script run, in order. */
  private enqueue(decisions: Queued[], at: number): void {
    if (this.queue.length > 0 && !Object.is(at, this.queuedAt)) this.flush();
    if (this.queue.length > 0 && this.queue.length + decisions.length > this.maxBatch) {
      this.flush();
    }
    this.queue.push(...decisions);
    this.queuedAt = at;
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
    const batch = this.queue;
    this.queue = [];
    const { keys, args } = encodeBatch(batch, this.queuedAt);
    runScript(this.redis, keys, args).then(
      (reply) => {
        let offset = 8;
        for (const queued of batch) {
          queued.resolve({ reply, offset });
          offset += 8 * (1 + queued.buckets.length);
        }
      },
      (error: unknown) => {
        for (const queued of batch) queued.reject(error);
      },
    );
  }
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
 * (whole ms, NaN for the server's clock), then per decision its signed bucket count and per
 * bucket the key's index, the limit's scale and period, and the units wanted.
 */
export function encodeBatch(
  batch: readonly BatchedDecision[],
  at: number,
): { keys: string[]; args: Buffer } {
  // One decision's keys are distinct already: they are the script's KEYS as they are.
  const single = batch.length === 1 ? batch[0]?.buckets.redisKeys : undefined;
  const keys: string[] = single ?? [];
  const index = new Map<string, number>();
  let doubles = 1;
  for (const queued of batch) doubles += 1 + 4 * queued.buckets.length;
  const args = Buffer.allocUnsafe(8 * doubles);
  let offset = args.writeDoubleBE(at, 0);
  for (const { buckets, n, take, shadow } of batch) {
    const count = take ? buckets.length : -buckets.length;
    offset = args.writeDoubleBE(shadow ? count + SHADOW : count, offset);
    for (let i = 0; i < buckets.length; i++) {
      let position = i + 1;
      if (!single) {
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

/**
 * ScriptCalls are the Buffer-replying forms of EVALSHA and EVAL that ioredis defines for every
 * command (its typings omit them): they go through its usual command path, auto-pipelining
 * and Cluster routing included.
 */
interface ScriptCalls {
  evalshaBuffer(sha: string, numkeys: number, ...keysAndArgs: (string | Buffer)[]): Promise<Buffer>;
  evalBuffer(script: string, numkeys: number, ...keysAndArgs: (string | Buffer)[]): Promise<Buffer>;
}

/** runScript runs DECIDE by its SHA, loading it once when the server does not know it yet. */
function runScript(redis: RedisClient, keys: string[], args: Buffer): Promise<Buffer> {
  const client = redis as unknown as ScriptCalls;
  return client.evalshaBuffer(DECIDE_SHA, keys.length, ...keys, args).catch((error: unknown) => {
    if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
    return client.evalBuffer(DECIDE, keys.length, ...keys, args);
  });
}

const batchers = new WeakMap<RedisClient, DecisionBatcher>();

/** batcherOf returns the client's one DecisionBatcher, so every limiter on it shares batches. */
export function batcherOf(redis: RedisClient): DecisionBatcher {
  let batcher = batchers.get(redis);
  if (!batcher) {
    batcher = new DecisionBatcher(redis);
    batchers.set(redis, batcher);
  }
  return batcher;
}
