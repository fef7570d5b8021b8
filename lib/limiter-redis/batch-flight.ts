import type { Buckets } from "./buckets";
import { type BatchedDecision, chargedIn, encodeBatch } from "./encode-batch";
import type { Flight } from "./script-run";

/**
 * ScriptReply is one decision's part of a script reply: `reply` holds packed doubles, the
 * execution time (ms) at byte 0, this decision's outcome (1 allowed, 0 refused, -1 a key that
 * is not a bucket) at `offset`, then the units each of its buckets held before the decision,
 * then per quota the start of the period it counted in (ms) and the tokens used before.
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
export const partOf: ReadReply<ScriptReply> = (_buckets, reply, offset) => ({ reply, offset });

/** Pending is a decision waiting for its batch's reply: answered from its part, or failed. */
export interface Pending extends BatchedDecision {
  /** settle answers the decision from its part of `reply`, at `offset`. */
  settle(reply: Buffer, offset: number): void;
  reject(error: unknown): void;
}

/** Queued is one decision waiting for its batch's reply, and how it reads and answers it. */
export class Queued<T> implements Pending {
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
export class Batch implements Flight {
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
      offset += 8 * q.buckets.replyDoubles;
    }
  }

  fail(error: unknown): void {
    for (const q of this.queued) q.reject(error);
  }
}
