import { limit as limitOf } from "@/lib/limiter";
import { decide, type Verdict } from "@/lib/policy/decide";
import type { Decision } from "@/lib/policy/decision-store";
import type { RequestInput } from "@/lib/policy/policy-limiter";
import { grantedExtra } from "@/lib/policy/quota-grants";
import { activeOverride, type CustomerPolicy } from "@/lib/policy/snapshot";
import { quotaZone } from "@/lib/policy/snapshot-limits";
import type {
  BucketHistory,
  DecisionView,
  LevelSample,
  QuotaView,
} from "@/lib/schemas/inspect-answer.schema";
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
  return {
    source: activeOverride(customer, operation, now) ? "override" : "plan",
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
 * quotaViews describes the quotas of a peeked decision of one class (none: an empty list): each
 * quota's count as stored, the extra granted for the current period, the tokens used in it and
 * those remaining (count + granted - used, never below 0).
 */
export function quotaViews(
  customer: CustomerPolicy,
  operation: Operation,
  now: number,
  { details }: Decision,
): QuotaView[] {
  if (!details.quotas) return [];
  const source = activeOverride(customer, operation, now) ? "override" : "plan";
  return details.quotas.map((q) => {
    const { period } = q.quota;
    const timeZone = quotaZone(q.quota);
    const granted = grantedExtra(customer, operation, period, timeZone, q.periodStartMs);
    return {
      operation,
      source,
      dryRun: false,
      period,
      timeZone,
      ...(period === "month" ? { anchorDay: q.quota.anchorDay } : {}),
      count: q.quota.count - granted,
      granted,
      used: q.used,
      remaining: Math.max(0, q.quota.count - q.used),
      periodStartMs: q.periodStartMs,
      periodEndMs: q.periodEndMs,
    };
  });
}

/** Inspection is a customer's peeked decision of each class, and its quotas. */
export interface Inspection {
  operations: Record<Operation, DecisionView>;
  quotas: QuotaView[];
}

/**
 * inspectCustomer peeks every bucket and quota of a customer, per operation class of the policy
 * (in its order): nothing is consumed or created.
 */
export async function inspectCustomer(
  rt: AdminContext,
  customer: CustomerPolicy,
): Promise<Inspection> {
  const now = rt.clock.now();
  const operations: Record<Operation, DecisionView> = {};
  const quotas: QuotaView[] = [];
  for (const operation of rt.policy.snapshot.classes) {
    const input: RequestInput = { customer, operation, now };
    const peeked = await rt.decisions.peek(input);
    operations[operation] = toView(customer, operation, now, peeked);
    quotas.push(...quotaViews(customer, operation, now, peeked));
  }
  return { operations, quotas };
}

/**
 * inspect peeks every bucket of a customer, per operation class of the policy (in its order):
 * nothing is consumed or created.
 */
export async function inspect(
  rt: AdminContext,
  customer: CustomerPolicy,
): Promise<Record<Operation, DecisionView>> {
  return (await inspectCustomer(rt, customer)).operations;
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
