import type { DebugDetails, Limit, Limiter } from "@/lib/limiter";
import type { StoreStatus } from "@/lib/schemas/health-answer.schema";
import type { DecisionSource, Operation } from "@/lib/vocabulary";
import type { RequestInput } from "./policy-limiter";
import { activeOverride, bucketKey, dryRunLimitsFor } from "./snapshot";

/**
 * DryRunOutcome is what the customer's dry-run limits made of an admitted decision, evaluated as
 * one all-or-nothing decision of their own on their own buckets (see `evaluateDryRun`).
 */
export interface DryRunOutcome {
  /** allowed is true when every dry-run limit had the tokens (then they were taken). */
  allowed: boolean;
  /** refusedBy lists the dry-run limits that lacked the tokens; none took any. */
  refusedBy: Limit[];
  /** source says whose dry-run limits they were: the plan's or the override's. */
  source: "plan" | "override";
}

/**
 * Decision is a decision's details and where it was made, and, when the decision allowed and the
 * customer has dry-run limits for the operation, what they made of it.
 */
export interface Decision {
  details: DebugDetails;
  source: DecisionSource;
  dryRun?: DryRunOutcome;
}

/**
 * DecisionStore is how the app decides on protected requests, whichever store holds the buckets.
 * `decide` and `peek` may answer synchronously (in memory) or with a Promise (Redis).
 */
export interface DecisionStore {
  /** decide takes `n` tokens from every bucket of the input, or none. */
  decide(input: RequestInput, n: number): Decision | Promise<Decision>;
  /** peek reports whether `n` tokens (1 by default) could be taken, consuming and creating nothing. */
  peek(input: RequestInput, n?: number): Decision | Promise<Decision>;
  /**
   * forget deletes a customer's buckets of each of `classes` (the policy's), keeping its quotas,
   * and returns how many it deleted.
   */
  forget(customerId: number, classes: Iterable<Operation>): Promise<number>;
  /**
   * invalidate drops what this instance remembers of the customers' decisions (refusals it
   * answers without the store), after their policy changed; "all" drops everything.
   */
  invalidate(customerIds: readonly number[] | "all"): void;
  /**
   * forgetLocal drops this instance's own state of a customer whose buckets another instance
   * reset: remembered refusals and buckets held in memory, of each of `classes` (the policy's).
   */
  forgetLocal(customerId: number, classes: Iterable<Operation>): void;
  status(): StoreStatus;
  /** ready settles once the store can answer (at once in memory; when Redis is connected). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** unavailable is the decision of an operation that fails closed: refused, retry in a second. */
export function unavailable(input: RequestInput, n: number, retryAfterMs: number): Decision {
  return {
    source: "unavailable",
    details: {
      allowed: false,
      executionTime: input.now,
      tokensRequested: n,
      tokensConsumed: 0,
      tokensRemaining: 0,
      retryAfterMs,
      buckets: [],
    },
  };
}

/** hasDryRun tells whether the input's customer has dry-run limits for the operation now. */
export function hasDryRun(input: RequestInput): boolean {
  return dryRunLimitsFor(input.customer, input.operation, input.now).length > 0;
}

/** dryRunInput is the input that selects the dry-run limits of `input`'s customer. */
export function dryRunInput(input: RequestInput): RequestInput {
  return { customer: input.customer, operation: input.operation, now: input.now, dryRun: true };
}

/** dryRunOutcome reads the dry-run decision's details as a DryRunOutcome. */
export function dryRunOutcome(input: RequestInput, details: DebugDetails): DryRunOutcome {
  const source = activeOverride(input.customer, input.operation, input.now) ? "override" : "plan";
  if (details.allowed) return { allowed: true, refusedBy: [], source };
  const refusedBy: Limit[] = [];
  for (const bucket of details.buckets) if (!bucket.allowed) refusedBy.push(bucket.limit);
  return { allowed: false, refusedBy, source };
}

/**
 * evaluateDryRun decides an admitted input's dry-run limits on the in-memory limiter: as one
 * all-or-nothing decision over their own buckets (the buckets they will have once promoted), it
 * takes `n` tokens from every dry-run bucket if all have them and otherwise takes none and names
 * the limits that lacked them. It never changes the admitted decision. Undefined when the
 * customer has no dry-run limits for the operation.
 */
export function evaluateDryRun(
  limiter: Limiter<RequestInput, string>,
  input: RequestInput,
  n: number,
): DryRunOutcome | undefined {
  const limits = dryRunLimitsFor(input.customer, input.operation, input.now);
  if (limits.length === 0) return undefined;
  const dry = dryRunInput(input);
  const source = activeOverride(input.customer, input.operation, input.now) ? "override" : "plan";
  // Most tries pass: they need no per-bucket details. A refusal took nothing, so a peek at the
  // same instant names the limits that lacked the tokens.
  if (limiter.allowN(dry, n)) return { allowed: true, refusedBy: [], source };
  const refusedBy: Limit[] = [];
  for (const bucket of limiter.peekNWithDebug(dry, n).buckets) {
    if (!bucket.allowed) refusedBy.push(bucket.limit);
  }
  // Tokens that came back between the two calls (a clock tick) name no limit: the refusal
  // still counts, against every limit tried.
  return { allowed: false, refusedBy: refusedBy.length > 0 ? refusedBy : limits, source };
}

/**
 * forgetCustomer deletes a customer's buckets of each of `classes` from an in-memory limiter,
 * keeping its quotas: a quota's use is billing state (a grant is how an operator gives more).
 */
export function forgetCustomer(
  limiter: Limiter<RequestInput, string>,
  customerId: number,
  classes: Iterable<Operation>,
): number {
  let deleted = 0;
  for (const operation of classes) {
    deleted += limiter.forgetBuckets(bucketKey(customerId, operation));
  }
  return deleted;
}

/** MemoryDecisionStore decides on the process's in-memory limiter: the embedded default. */
export class MemoryDecisionStore implements DecisionStore {
  constructor(private readonly limiter: Limiter<RequestInput, string>) {}

  decide(input: RequestInput, n: number): Decision {
    const details = this.limiter.allowNWithDebug(input, n);
    const dryRun = details.allowed ? evaluateDryRun(this.limiter, input, n) : undefined;
    return { details, source: "memory", dryRun };
  }

  peek(input: RequestInput, n = 1): Decision {
    return { details: this.limiter.peekNWithDebug(input, n), source: "memory" };
  }

  async forget(customerId: number, classes: Iterable<Operation>): Promise<number> {
    return forgetCustomer(this.limiter, customerId, classes);
  }

  invalidate(): void {}

  forgetLocal(customerId: number, classes: Iterable<Operation>): void {
    forgetCustomer(this.limiter, customerId, classes);
  }

  status(): StoreStatus {
    return { store: "memory" };
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {}
}
