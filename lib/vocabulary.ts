// The words every floor of the app shares, defined once: the database schema, the policy, the
// admin API, the dashboard and its browser bundle all import them from here. Nothing here may
// import anything of the app.

/**
 * DEFAULT_CLASSES are the operation classes that always exist (seeded, never deleted) and that
 * requests fall into by method when they name none: GET and HEAD read, every other method writes.
 */
export const DEFAULT_CLASSES = ["read", "write"] as const;

/**
 * CLASS_NAME_PATTERN is what an operation class's name looks like: a lowercase letter, then up to
 * 31 lowercase letters, digits or hyphens.
 */
export const CLASS_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Operation is the name of an operation class (CLASS_NAME_PATTERN): one of DEFAULT_CLASSES or
 * one an operator added. Which names exist is the policy's to say (its snapshot's `classes`).
 */
export type Operation = string;

/** isDefaultClass says whether a class is one of DEFAULT_CLASSES (which cannot be deleted). */
export function isDefaultClass(name: string): boolean {
  return name === "read" || name === "write";
}

/** operationOf maps an HTTP method to an operation: GET and HEAD read, every other method writes. */
export function operationOf(method: string): Operation {
  return method === "GET" || method === "HEAD" ? "read" : "write";
}

/** CUSTOMER_STATUSES: a suspended customer's requests are refused with 403. */
export const CUSTOMER_STATUSES = ["active", "suspended"] as const;

/** CustomerStatus is "active" or "suspended". */
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/**
 * QUOTA_PERIODS are the calendar periods a quota counts over: a day from local midnight, a week
 * from Monday 00:00 local, a month from the customer's billing anchor day.
 */
export const QUOTA_PERIODS = ["day", "week", "month"] as const;

/** QuotaPeriod is "day", "week" or "month". */
export type QuotaPeriod = (typeof QUOTA_PERIODS)[number];

/** LimitShape is a limit as stored and sent over the wire: `count` tokens per `periodMs` ms. */
export interface LimitShape {
  count: number;
  periodMs: number;
}

/**
 * PolicyLimit is a limit of a plan or an override. A dry-run limit (`dryRun: true`) is evaluated
 * on every admitted decision, on its own buckets, and counted when it would have refused, but
 * never refuses; absent means enforced.
 */
export interface PolicyLimit extends LimitShape {
  dryRun?: boolean;
}

/** LimitRow is one limit of a plan: a policy limit for one operation. */
export interface LimitRow extends PolicyLimit {
  operation: Operation;
}

/**
 * QuotaShape is a quota as stored and sent over the wire: `count` tokens per calendar `period`
 * in the IANA `timeZone` ("UTC" when absent); months start on the customer's billing anchor day.
 */
export interface QuotaShape {
  count: number;
  period: QuotaPeriod;
  timeZone?: string;
}

/** PolicyQuota is a quota of a plan or an override (`dryRun` as for a PolicyLimit). */
export interface PolicyQuota extends QuotaShape {
  dryRun?: boolean;
}

/** QuotaRow is one quota of a plan: a policy quota for one operation. */
export interface QuotaRow extends PolicyQuota {
  operation: Operation;
}

/** AnyPolicyLimit is a limit of an override: a bucket's (`periodMs`) or a quota's (`period`). */
export type AnyPolicyLimit = PolicyLimit | PolicyQuota;

/** AnyLimitRow is a limit of a plan: a bucket's row (`periodMs`) or a quota's row (`period`). */
export type AnyLimitRow = LimitRow | QuotaRow;

/** isQuotaShape tells a quota (it has a calendar `period`) from a bucket limit (`periodMs`). */
export function isQuotaShape<B extends LimitShape, Q extends QuotaShape>(limit: B | Q): limit is Q {
  return "period" in limit && limit.period !== undefined;
}

/** bucketsOf keeps a list's bucket limits (those with `periodMs`), leaving out its quotas. */
export function bucketsOf<T extends LimitShape | QuotaShape>(
  limits: readonly T[],
): Exclude<T, { period: QuotaPeriod }>[] {
  return limits.filter(
    (l): l is Exclude<T, { period: QuotaPeriod }> => !("period" in l && l.period !== undefined),
  );
}

/** MAX_QUOTA_COUNT is the largest count a stored quota may have. */
export const MAX_QUOTA_COUNT = 1_000_000_000;

/** LIMIT_SOURCES say where a customer's limits for an operation come from. */
export const LIMIT_SOURCES = ["plan", "override"] as const;

/** LimitSource is "plan" or "override". */
export type LimitSource = (typeof LIMIT_SOURCES)[number];

/**
 * DECISION_REASONS say why a request was admitted or refused: the one vocabulary of outcomes.
 * The protected routes, the decision API, the gateway and the dashboard's test request map each
 * to the same HTTP status (`statusOf` in lib/policy/decide.ts).
 */
export const DECISION_REASONS = [
  "ok",
  "rate_limited",
  "unknown_key",
  "suspended",
  "cost_exceeds_limit",
  "store_unavailable",
] as const;

/** DecisionReason is one of DECISION_REASONS. */
export type DecisionReason = (typeof DECISION_REASONS)[number];

/**
 * DECISION_SOURCES say where a decision was made: the in-memory limiter (the embedded default),
 * Redis (shared by every instance), a refusal Redis made earlier that this instance remembers
 * until its retry-after ("redis-cache"), this instance's in-memory stand-in while Redis is
 * unreachable and the operation fails open, or nowhere ("unavailable"): Redis is unreachable and
 * the operation fails closed.
 */
export const DECISION_SOURCES = [
  "memory",
  "redis",
  "redis-cache",
  "stand-in",
  "unavailable",
] as const;

/** DecisionSource is one of DECISION_SOURCES. */
export type DecisionSource = (typeof DECISION_SOURCES)[number];

/** BUCKET_STORES are where an instance keeps its buckets: in memory, or in Redis. */
export const BUCKET_STORES = ["memory", "redis"] as const;

/** BucketStore is "memory" or "redis". */
export type BucketStore = (typeof BUCKET_STORES)[number];

/**
 * REDIS_HEALTHS are where an instance stands with Redis: `connecting` until Redis first answers
 * (and no call to it failed meanwhile), `up` while it answers, `down` from a failed call (a
 * decision, a background call, the connection itself) until a probe's PING is answered.
 */
export const REDIS_HEALTHS = ["connecting", "up", "down"] as const;

/** RedisHealth is one of REDIS_HEALTHS. */
export type RedisHealth = (typeof REDIS_HEALTHS)[number];

/**
 * USAGE_OUTCOMES are what the usage rollups count a decision as: admitted, refused by its limits
 * (429), refused because the shared store was unreachable (503), or refused for its cost (413,
 * "too_large": more tokens than a limit's full bucket holds, so it could never pass; the
 * caller's mistake, not pressure on a limit, and its cost is not counted as tokens requested).
 */
export const USAGE_OUTCOMES = ["allowed", "denied", "unavailable", "too_large"] as const;

/** UsageOutcome is one of USAGE_OUTCOMES. */
export type UsageOutcome = (typeof USAGE_OUTCOMES)[number];

/**
 * USAGE_COUNTERS are the additive counters of a usage rollup row, defined once: decisions by
 * outcome (`tooLarge`: refused for their cost, 413, apart from `denied`; see USAGE_OUTCOMES) and
 * tokens (requested by the decisions that could pass, and taken). The row types, the rollup
 * columns and their SQL derive from this list, and every encoding keeps its order (a Redis field
 * names its counter by index: a new counter goes last, so old instances' fields still read).
 */
export const USAGE_COUNTERS = [
  "allowed",
  "denied",
  "unavailable",
  "tokensRequested",
  "tokensTaken",
  "tooLarge",
] as const;

/** UsageCounter is one of USAGE_COUNTERS. */
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

/**
 * snakeCounterName is the name a usage counter goes by in SQL and in CSV exports:
 * "tokensTaken" is "tokens_taken".
 */
export function snakeCounterName(counter: UsageCounter): string {
  return counter.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** UsageCounts hold one number per usage counter (decisions, or tokens). */
export type UsageCounts = Record<UsageCounter, number>;

/** COUNTER_OF_OUTCOME names the counter each usage outcome is counted in. */
export const COUNTER_OF_OUTCOME = {
  allowed: "allowed",
  denied: "denied",
  unavailable: "unavailable",
  too_large: "tooLarge",
} as const satisfies Record<UsageOutcome, UsageCounter>;

/** OutcomeCounts count decisions by outcome, as the usage rollups do (see USAGE_OUTCOMES). */
export type OutcomeCounts = Pick<UsageCounts, (typeof COUNTER_OF_OUTCOME)[UsageOutcome]>;

/** zeroCounts returns usage counts all at zero. */
export function zeroCounts(): UsageCounts {
  return Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, 0])) as UsageCounts;
}

/** addCounts adds `from`'s counters to `into`'s. */
export function addCounts(into: UsageCounts, from: UsageCounts): void {
  for (const counter of USAGE_COUNTERS) into[counter] += from[counter];
}

/** decisionsOf is how many decisions `counts` hold: those of every outcome. */
export function decisionsOf(counts: OutcomeCounts): number {
  return counts.allowed + counts.denied + counts.unavailable + counts.tooLarge;
}

/**
 * UsageRow is one rollup row's worth of counts: decisions by outcome and tokens, for a customer,
 * an operation and the plan it was on (no foreign key: plans may go), in the step (minute, hour
 * or UTC day) starting at `startMs` (ms since the epoch).
 */
export interface UsageRow extends UsageCounts {
  startMs: number;
  customerId: number;
  operation: Operation;
  planId: number;
}

/**
 * DryRunRow counts the admitted decisions one dry-run limit (`limitCount` tokens per
 * `limitPeriodMs` ms, the plan's or the override's) would have refused in a step.
 */
export interface DryRunRow {
  startMs: number;
  customerId: number;
  operation: Operation;
  planId: number;
  source: LimitSource;
  limitCount: number;
  limitPeriodMs: number;
  refused: number;
}

/** USAGE_GRANULARITIES are the steps a usage series can be read in (days are UTC days). */
export const USAGE_GRANULARITIES = ["minute", "hour", "day"] as const;

/** UsageGranularity is one of USAGE_GRANULARITIES. */
export type UsageGranularity = (typeof USAGE_GRANULARITIES)[number];
/**
 * AUDIT_ACTIONS are the kinds of operator change the audit log records, as stored in its
 * `action` column: the services write them, the audit filter accepts only them.
 */
export const AUDIT_ACTIONS = [
  "plan.create",
  "plan.update",
  "plan.delete",
  "plan.promote-dry-run",
  "customer.create",
  "customer.update",
  "customer.suspend",
  "customer.activate",
  "customer.rotate-key",
  "customer.reset-buckets",
  "customer.delete",
  "override.set",
  "override.clear",
  "override.promote-dry-run",
  "service-token.create",
  "service-token.revoke",
  "route-rules.set",
  "quota.grant",
  "class.create",
  "class.update",
  "class.delete",
] as const;

/** AuditAction is one of AUDIT_ACTIONS. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * SERVICE_TOKEN_SCOPES are what a service token may do with the decision API: `decide` takes
 * tokens from customers' buckets (and may peek); `peek` may only ask without taking.
 */
export const SERVICE_TOKEN_SCOPES = ["decide", "peek"] as const;

/** ServiceTokenScope is "decide" or "peek". */
export type ServiceTokenScope = (typeof SERVICE_TOKEN_SCOPES)[number];

/**
 * SERVICE_TOKEN_REFUSALS are why a decision call is refused for its service token: `missing`
 * (no Bearer token), `unknown` (a token that never existed), `revoked` (401 all three), `scope`
 * (403: a live token without the scope the call needs).
 */
export const SERVICE_TOKEN_REFUSALS = ["missing", "unknown", "revoked", "scope"] as const;

/** ServiceTokenRefusal is one of SERVICE_TOKEN_REFUSALS. */
export type ServiceTokenRefusal = (typeof SERVICE_TOKEN_REFUSALS)[number];

/**
 * ROLES are what an instance can be: the full app ("full": the control plane, with its database,
 * dashboard and admin API, and the data plane), or an edge ("edge": the data plane only, its
 * policy read from Redis, no database).
 */
export const ROLES = ["full", "edge"] as const;

/** Role is "full" or "edge". */
export type Role = (typeof ROLES)[number];
