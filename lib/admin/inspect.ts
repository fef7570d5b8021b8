import type { RequestInput } from "@/lib/policy/decision";
import type { Decision, DecisionSource } from "@/lib/policy/decisions";
import { type CustomerPolicy, limitsFor } from "@/lib/policy/snapshot";
import type { Runtime } from "@/lib/runtime";
import type { LimitShape, Operation } from "@/lib/vocabulary";
import { OPERATIONS } from "@/lib/vocabulary";

/** BucketView is one bucket as the inspector shows it. */
export interface BucketView {
  limit: LimitShape;
  remaining: number;
  capacity: number;
  retryAfterMs: number;
  allowed: boolean;
  executionTime: number;
}

/** DecisionView is one operation's decision (peeked or made), with its buckets. */
export interface DecisionView {
  source: "plan" | "override";
  /** store is where it was decided (see DecisionSource): "stand-in" while Redis is unreachable. */
  store: DecisionSource;
  allowed: boolean;
  tokensRequested: number;
  tokensConsumed: number;
  tokensRemaining: number | null;
  retryAfterMs: number | null;
  executionTime: number;
  buckets: BucketView[];
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** toView turns limiter Details into JSON-safe numbers (Infinity becomes null). */
export function toView(
  customer: CustomerPolicy,
  operation: Operation,
  now: number,
  { details, source: store }: Decision,
): DecisionView {
  const override = customer.overrides[operation];
  const overridden =
    override !== undefined && limitsFor(customer, operation, now) === override.limits;
  return {
    source: overridden ? "override" : "plan",
    store,
    allowed: details.allowed,
    tokensRequested: details.tokensRequested,
    tokensConsumed: details.tokensConsumed,
    tokensRemaining: finite(details.tokensRemaining),
    retryAfterMs: finite(details.retryAfterMs),
    executionTime: details.executionTime,
    buckets: details.buckets.map((b) => ({
      limit: { count: b.limit.count, periodMs: b.limit.periodMs },
      remaining: b.tokensRemaining,
      capacity: b.limit.count,
      retryAfterMs: finite(b.retryAfterMs) ?? -1,
      allowed: b.allowed,
      executionTime: b.executionTime,
    })),
  };
}

/** inspect peeks every bucket of a customer, per operation: nothing is consumed or created. */
export async function inspect(
  rt: Runtime,
  customer: CustomerPolicy,
): Promise<Record<Operation, DecisionView>> {
  const now = rt.clock.now();
  const result = {} as Record<Operation, DecisionView>;
  for (const operation of OPERATIONS) {
    const input: RequestInput = { customer, operation, now };
    result[operation] = toView(customer, operation, now, await rt.decisions.peek(input));
  }
  return result;
}

/** testRequest makes one real decision for a customer, as a protected request would. */
export async function testRequest(
  rt: Runtime,
  customer: CustomerPolicy,
  operation: Operation,
  cost: number,
): Promise<DecisionView> {
  const now = rt.clock.now();
  const decision = await rt.decisions.decide({ customer, operation, now }, cost);
  if (decision.source !== "unavailable") {
    rt.metrics.decision(customer.planSlug, operation, decision.details.allowed);
    rt.traffic.record(customer.id, operation, decision.details.allowed, now);
  }
  return toView(customer, operation, now, decision);
}
