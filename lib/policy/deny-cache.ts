import type { DebugDetails, Limit } from "@/lib/limiter";
import type { Operation } from "@/lib/vocabulary";
import type { RequestInput } from "./policy-limiter";
import { limitsFor } from "./snapshot";

/** DEFAULT_DENY_CACHE_ENTRIES is how many refusals an instance remembers unless told otherwise. */
export const DEFAULT_DENY_CACHE_ENTRIES = 10_000;

interface Remembered {
  customerId: number;
  details: DebugDetails;
  /** at is the app time (ms) of the request Redis refused. */
  at: number;
  /** until is the app time (ms) from which Redis decides again: `at` plus the retry-after. */
  until: number;
  /** limits are the ids of the limits the refusal was decided on, in order. */
  limits: string;
}

/** limitIds names limits by their ids, in order, each once (as a decision's buckets are). */
function limitIds(limits: readonly Limit[]): string {
  const ids: string[] = [];
  for (const limit of limits) if (!ids.includes(limit.id)) ids.push(limit.id);
  return ids.join(",");
}

function keyOf(customerId: number, operation: Operation, cost: number): string {
  return `${customerId}:${operation}:${cost}`;
}

/** advanced is a remembered refusal as seen `elapsedMs` later: later, with less to wait. */
function advanced(details: DebugDetails, elapsedMs: number): DebugDetails {
  const elapsed = Math.max(0, elapsedMs);
  const later = (retryAfterMs: number) =>
    retryAfterMs > 0 ? Math.max(0, retryAfterMs - elapsed) : retryAfterMs;
  return {
    ...details,
    executionTime: details.executionTime + elapsed,
    retryAfterMs: later(details.retryAfterMs),
    buckets: details.buckets.map((bucket) => ({
      ...bucket,
      executionTime: bucket.executionTime + elapsed,
      retryAfterMs: later(bucket.retryAfterMs),
      fullInMs: Math.max(0, bucket.fullInMs - elapsed),
    })),
  };
}

/**
 * DenyCache remembers the refusals Redis made for an input (customer, operation, cost) until
 * their retry-after, so an instance answers a customer who keeps asking over its limit without
 * a round trip. That is safe because other instances can only take tokens from a bucket,
 * never add them: until the retry-after, Redis would refuse again. What can add tokens is an
 * operator (a reset, a plan or override edit, a key rotation): those call `forgetCustomers`
 * here and, through the policy notices, on every instance. A remembered refusal is also
 * dropped when the limits it was decided on no longer apply (an override expired), and a
 * refusal decided across an invalidation is not remembered at all (see `epoch`).
 *
 * It holds at most `maxEntries` refusals, evicting the least recently used.
 */
export class DenyCache {
  private readonly entries = new Map<string, Remembered>();
  private generation = 0;

  constructor(readonly maxEntries: number = DEFAULT_DENY_CACHE_ENTRIES) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    }
  }

  /** size is the number of refusals remembered. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * epoch counts invalidations. Read it before asking Redis and pass it to `remember`: a
   * refusal decided while an operator reset or edited the customer may predate the change.
   */
  get epoch(): number {
    return this.generation;
  }

  /**
   * lookup returns the remembered refusal of `cost` tokens for the input, with its times
   * advanced to `input.now`, or nothing when there is none still in force.
   */
  lookup(input: RequestInput, cost: number): DebugDetails | undefined {
    const key = keyOf(input.customer.id, input.operation, cost);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    const limits = limitIds(limitsFor(input.customer, input.operation, input.now));
    if (input.now >= entry.until || entry.limits !== limits) return undefined;
    this.entries.set(key, entry);
    return advanced(entry.details, input.now - entry.at);
  }

  /**
   * remember keeps Redis's refusal of `cost` tokens for the input until its retry-after, unless
   * an invalidation happened since `epoch` was read.
   */
  remember(input: RequestInput, cost: number, details: DebugDetails, epoch: number): void {
    if (epoch !== this.generation || details.allowed || !(details.retryAfterMs > 0)) return;
    const key = keyOf(input.customer.id, input.operation, cost);
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const eldest = this.entries.keys().next();
      if (!eldest.done) this.entries.delete(eldest.value);
    }
    this.entries.set(key, {
      customerId: input.customer.id,
      details,
      at: input.now,
      until: input.now + details.retryAfterMs,
      limits: limitIds(details.buckets.map((bucket) => bucket.limit)),
    });
  }

  /** forgetCustomers drops every refusal remembered for these customers. */
  forgetCustomers(customerIds: Iterable<number>): void {
    this.generation++;
    const ids = new Set(customerIds);
    for (const [key, entry] of this.entries) {
      if (ids.has(entry.customerId)) this.entries.delete(key);
    }
  }

  /** clear drops every refusal remembered. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
