import { limit as limitOf } from "@/lib/limiter";
import { decide, type Verdict } from "@/lib/policy/decide";
import type { Decision } from "@/lib/policy/decision-store";
import type { RequestInput } from "@/lib/policy/policy-limiter";
import { type CustomerPolicy, limitsFor } from "@/lib/policy/snapshot";
import type { BucketHistory, DecisionView, LevelSample } from "@/lib/schemas/inspect-answer.schema";
import { replayBucket } from "@/lib/usage/bucket-history";
import type { LiveTraffic } from "@/lib/usage/live-traffic";
import type { Operation } from "@/lib/vocabulary";
import type { AdminContext } from "./context";

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
  const override = customer.overrides.get(operation);
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
      fullInMs: b.fullInMs,
    })),
  };
}

/**
 * inspect peeks every bucket of a customer, per operation class of the policy (in its order):
 * nothing is consumed or created.
 */
export async function inspect(
  rt: AdminContext,
  customer: CustomerPolicy,
): Promise<Record<Operation, DecisionView>> {
  const now = rt.clock.now();
  const result: Record<Operation, DecisionView> = {};
  for (const operation of rt.policy.snapshot.classes) {
    const input: RequestInput = { customer, operation, now };
    result[operation] = toView(customer, operation, now, await rt.decisions.peek(input));
  }
  return result;
}

/** testRequest makes one real decision for a customer through the app's one decision path. */
export async function testRequest(
  ctx: AdminContext,
  customer: CustomerPolicy,
  operation: Operation,
  cost: number,
): Promise<{ verdict: Verdict; view: DecisionView }> {
  const verdict = await decide(ctx, customer, operation, cost);
  return { verdict, view: toView(customer, operation, verdict.now, verdict.decision) };
}

/**
 * bucketHistory replays the last `seconds` of each bucket of an inspection (made at `now`) from
 * the customer's decisions in the live view (see replayBucket): what the buckets held before the
 * inspector was opened.
 */
export async function bucketHistory(
  live: LiveTraffic,
  customerId: number,
  operations: Record<Operation, DecisionView>,
  now: number,
  seconds: number,
): Promise<BucketHistory> {
  const fromMs = now - seconds * 1000;
  const view = await live.takenSeconds(now, seconds, [customerId]);
  const result: Record<Operation, LevelSample[][]> = {};
  for (const [operation, inspected] of Object.entries(operations)) {
    const taken = view.seconds.get(`${customerId}|${operation}`) ?? [];
    result[operation] = inspected.buckets.map((bucket) =>
      replayBucket(limitOf(bucket.limit.count, bucket.limit.periodMs), taken, fromMs, now, bucket),
    );
  }
  return { fromMs, toMs: now, scope: view.scope, operations: result };
}
