import { type DecisionReason, statusOf, type Verdict } from "@/lib/policy/decide";
import { bindingBucket, policyName, refillMs } from "@/lib/policy/headers";
import { identityRefusal, type Refusal, refusalOf } from "@/lib/policy/refusal";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import type { Operation } from "@/lib/vocabulary";

/** CustomerSummary is the customer a decision was made for, as the decision API names it. */
export interface CustomerSummary {
  id: number;
  name: string;
  plan: { id: number; slug: string; name: string };
}

/**
 * DecisionResult is one answer of the decision API (see README, "The decision API"): the outcome,
 * the binding limit, and the exact fields and problem body the caller should send its client.
 * Times are whole milliseconds, rounded up so a caller who waits them is never early.
 */
export interface DecisionResult {
  allowed: boolean;
  reason: DecisionReason;
  /** status is the HTTP status the caller should answer its own client (statusOf(reason)). */
  status: number;
  customer: CustomerSummary | null;
  operation: Operation;
  cost: number;
  /** remaining is the binding bucket's tokens left (null: no limits, or no customer). */
  remaining: number | null;
  limit: { policy: string; count: number; periodMs: number } | null;
  /** resetAfterMs is the time until the binding bucket is full again. */
  resetAfterMs: number | null;
  /** retryAfterMs is 0 when allowed, null when waiting cannot help (cost_exceeds_limit, no customer). */
  retryAfterMs: number | null;
  headers: Record<string, string>;
  problem: Refusal["body"] | null;
}

function summary(customer: CustomerPolicy): CustomerSummary {
  return {
    id: customer.id,
    name: customer.name,
    plan: { id: customer.planId, slug: customer.planSlug, name: customer.planName },
  };
}

function wholeMs(ms: number): number | null {
  return Number.isFinite(ms) ? Math.ceil(ms) : null;
}

/** resultOfVerdict describes a decision made (or peeked) through `decide`. */
export function resultOfVerdict(verdict: Verdict): DecisionResult {
  const { details } = verdict.decision;
  const binding = bindingBucket(details);
  const refusal = refusalOf(verdict);
  return {
    allowed: verdict.allowed,
    reason: verdict.reason,
    status: statusOf(verdict.reason),
    customer: summary(verdict.customer),
    operation: verdict.operation,
    cost: verdict.cost,
    remaining: binding ? Math.max(0, binding.tokensRemaining) : null,
    limit: binding
      ? {
          policy: policyName(verdict.operation, binding.limit),
          count: binding.limit.count,
          periodMs: binding.limit.periodMs,
        }
      : null,
    resetAfterMs: binding ? Math.ceil(refillMs(binding)) : null,
    retryAfterMs: verdict.allowed ? 0 : wholeMs(details.retryAfterMs),
    headers: refusal ? refusal.headers : verdict.headers,
    problem: refusal ? refusal.body : null,
  };
}

/**
 * resultOfIdentity describes a request that was not decided: the key names no customer (401) or
 * a suspended one (403), answered as the protected routes answer them.
 */
export function resultOfIdentity(
  reason: "unknown_key" | "suspended",
  customer: CustomerPolicy | undefined,
  operation: Operation,
  cost: number,
): DecisionResult {
  const refusal = identityRefusal(reason);
  return {
    allowed: false,
    reason,
    status: statusOf(reason),
    customer: customer ? summary(customer) : null,
    operation,
    cost,
    remaining: null,
    limit: null,
    resetAfterMs: null,
    retryAfterMs: null,
    headers: refusal.headers,
    problem: refusal.body,
  };
}
