import type { Limit, QuotaDetails } from "@/lib/limiter";
import { statusOf, type Verdict } from "@/lib/policy/decide";
import { bindingBucket, policyName, quotaPolicyName, refillMs } from "@/lib/policy/headers";
import { identityRefusal, refusalOf } from "@/lib/policy/refusal";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import { quotaZone } from "@/lib/policy/snapshot-limits";
import type {
  CustomerSummary,
  DecisionAnswer,
  DecisionLimit,
  DecisionQuota,
} from "@/lib/schemas/decision-answer.schema";
import type { Operation } from "@/lib/vocabulary";

// Summaries of snapshot objects (immutable, replaced whole on a policy change) are made once.
const summaries = new WeakMap<CustomerPolicy, CustomerSummary>();
const limits = new Map<Operation, WeakMap<Limit, DecisionLimit>>();

function summary(customer: CustomerPolicy): CustomerSummary {
  let made = summaries.get(customer);
  if (!made) {
    made = {
      id: customer.id,
      name: customer.name,
      plan: { id: customer.planId, slug: customer.planSlug, name: customer.planName },
    };
    summaries.set(customer, made);
  }
  return made;
}

function limitOf(operation: Operation, limit: Limit): DecisionLimit {
  let byLimit = limits.get(operation);
  if (!byLimit) {
    byLimit = new WeakMap();
    limits.set(operation, byLimit);
  }
  let made = byLimit.get(limit);
  if (!made) {
    made = { policy: policyName(operation, limit), count: limit.count, periodMs: limit.periodMs };
    byLimit.set(limit, made);
  }
  return made;
}

function wholeMs(ms: number): number | null {
  return Number.isFinite(ms) ? Math.ceil(ms) : null;
}

/** resultOfVerdict describes a decision made (or peeked) through `decide`. */
export function resultOfVerdict(verdict: Verdict): DecisionAnswer {
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
    limit: binding ? limitOf(verdict.operation, binding.limit) : null,
    resetAfterMs: binding ? Math.ceil(refillMs(binding)) : null,
    retryAfterMs: verdict.allowed ? 0 : wholeMs(details.retryAfterMs),
    headers: refusal ? refusal.headers : verdict.headers,
    problem: refusal ? refusal.body : null,
    ...(details.quotas ? { quotas: quotasOf(verdict.operation, details.quotas) } : {}),
  };
}

/** quotasOf reports a decision's quotas as the decision API answers them. */
function quotasOf(operation: Operation, quotas: readonly QuotaDetails[]): DecisionQuota[] {
  return quotas.map((q) => ({
    policy: quotaPolicyName(operation, q),
    count: q.quota.count,
    period: q.quota.period,
    timeZone: quotaZone(q.quota),
    used: q.used,
    remaining: q.remaining,
    periodStartMs: q.periodStartMs,
    periodEndMs: q.periodEndMs,
    resetAfterMs: Math.ceil(q.resetInMs),
  }));
}

/**
 * resultOfIdentity describes a request that was not decided: the key or id names no customer
 * (401: "Unknown API key", or "Unknown customer" for an id) or a suspended one (403), answered as
 * the protected routes answer them.
 */
export function resultOfIdentity(
  reason: "unknown_key" | "suspended",
  customer: CustomerPolicy | undefined,
  operation: Operation,
  cost: number,
  by: "key" | "id" = "key",
): DecisionAnswer {
  const refusal = identityRefusal(reason, by);
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

// Snapshot objects are immutable and replaced whole on a policy change: their JSON is written
// once. RateLimit-Policy values are few (one per plan and override) and long: theirs too.
const customerJson = new WeakMap<CustomerSummary, string>();
const limitJson = new WeakMap<object, string>();
const policyJson = new Map<string, string>();
const POLICY_JSON_ENTRIES = 10_000;

function jsonOfPolicy(value: string): string {
  let json = policyJson.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    if (policyJson.size >= POLICY_JSON_ENTRIES) policyJson.clear();
    policyJson.set(value, json);
  }
  return json;
}

function jsonOfHeaders(headers: Record<string, string>): string {
  let json = "";
  for (const name in headers) {
    const value = headers[name] as string;
    json += `${json ? "," : ""}${JSON.stringify(name)}:${
      name === "RateLimit-Policy" ? jsonOfPolicy(value) : JSON.stringify(value)
    }`;
  }
  return `{${json}}`;
}

function jsonOnce<T extends object>(cache: WeakMap<T, string>, value: T): string {
  let json = cache.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    cache.set(value, json);
  }
  return json;
}

/**
 * decisionResultJson writes a DecisionAnswer as JSON, exactly as JSON.stringify would (the tests
 * hold it to that), but several times faster: a batch answers a thousand of them, and the parts
 * that repeat (the customer, the policy) are written once.
 */
export function decisionResultJson(r: DecisionAnswer): string {
  const limit = r.limit === null ? "null" : jsonOnce(limitJson, r.limit);
  const problem = r.problem === null ? "null" : JSON.stringify(r.problem);
  return (
    `{"allowed":${r.allowed},"reason":"${r.reason}","status":${r.status},` +
    `"customer":${r.customer === null ? "null" : jsonOnce(customerJson, r.customer)},"operation":"${r.operation}","cost":${r.cost},` +
    `"remaining":${r.remaining},"limit":${limit},"resetAfterMs":${r.resetAfterMs},` +
    `"retryAfterMs":${r.retryAfterMs},"headers":${jsonOfHeaders(r.headers)},"problem":${problem}` +
    `${r.quotas === undefined ? "" : `,"quotas":${JSON.stringify(r.quotas)}`}}`
  );
}
