import { type DebugDetails, Quota } from "@/lib/limiter";
import type { Operation } from "@/lib/vocabulary";
import type { RequestInput } from "./policy-limiter";
import { limitsFor } from "./snapshot";

/** DEFAULT_DENY_CACHE_ENTRIES is how many refusals an instance remembers unless told otherwise. */
export const DEFAULT_DENY_CACHE_ENTRIES = 10_000;

/**
 * QUOTA_REFUSAL_MEMORY_MS is the longest a refusal by a quota is remembered (ms): its retry-after
 * is the period's end, days away, and what would make Redis admit sooner (a grant, an edit, a
 * restored quota state) should not wait on a missed notice for longer than this.
 */
export const QUOTA_REFUSAL_MEMORY_MS = 60_000;

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

/** limitIds names limits (buckets and quotas) by their ids, in order, each once (as a decision's are). */
function limitIds(limits: readonly { id: string }[]): string {
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
    ...(details.quotas
      ? {
          quotas: details.quotas.map((q) => ({
            ...q,
            executionTime: q.executionTime + elapsed,
            retryAfterMs: later(q.retryAfterMs),
            resetInMs: Math.max(0, q.resetInMs - elapsed),
          })),
        }
      : {}),
  };
}

/**
 * memoryMs is how long a refusal is remembered: until its retry-after, but at most
 * QUOTA_REFUSAL_MEMORY_MS when a quota refused it (and it can pass at all).
 */
function memoryMs(details: DebugDetails): number {
  const byQuota = details.quotas?.some((q) => !q.allowed) ?? false;
  return byQuota && Number.isFinite(details.retryAfterMs)
    ? Math.min(details.retryAfterMs, QUOTA_REFUSAL_MEMORY_MS)
    : details.retryAfterMs;
}

/**
 * DenyCache remembers the refusals Redis made for an input (customer, operation, cost) until
 * their retry-after, so an instance answers a customer who keeps asking over its limit without
 * a round trip. That is safe because other instances can only take tokens from a bucket,
 * never add them: until the retry-after, Redis would refuse again. What can add tokens is an
 * operator (a reset, a plan or override edit, a key rotation): those call `forgetCustomers`
 * here and, through the policy notices, on every instance. A remembered refusal is also
 * dropped when the limits it was decided on no longer apply (an override expired), and a
 * refusal decided across an invalidation is not remembered at all (see `epoch`). A refusal by a
 * quota is remembered for QUOTA_REFUSAL_MEMORY_MS at most (its retry-after is the period's end).
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
    const current = limitsFor(input.customer, input.operation, input.now);
    // A decision's details list its buckets, then its quotas: so are the ids remembered.
    const limits = limitIds([
      ...current.filter((l) => !(l instanceof Quota)),
      ...current.filter((l) => l instanceof Quota),
    ]);
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
      until: input.now + memoryMs(details),
      limits: limitIds([
        ...details.buckets.map((bucket) => bucket.limit),
        ...(details.quotas ?? []).map((q) => q.quota),
      ]),
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
