// The shapes of Ratekeeper's decision API (POST /api/v1/decisions and /api/v1/decisions/batch),
// as they travel over the wire. The server is the source of these shapes; this file mirrors them
// for callers that cannot import the server's code.

/**
 * DEFAULT_CLASSES are the operation classes every Ratekeeper has, and the ones requests fall into
 * by method when they name none: GET and HEAD read, every other method writes. Operators add
 * others (say "exports"); the server refuses a class it does not have with a 400 naming it.
 */
export const DEFAULT_CLASSES = ["read", "write"] as const;

/**
 * OPERATIONS are DEFAULT_CLASSES, under their earlier name.
 * @deprecated Use DEFAULT_CLASSES: a request may name any of the server's operation classes.
 */
export const OPERATIONS = DEFAULT_CLASSES;

/**
 * CLASS_NAME_PATTERN is what an operation class's name looks like: a lowercase letter, then up to
 * 31 lowercase letters, digits or hyphens.
 */
export const CLASS_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Operation is the name of an operation class (CLASS_NAME_PATTERN): which of the customer's
 * buckets a request draws from, "read", "write" or one the operators added.
 */
export type Operation = string;

/**
 * DECISION_REASONS are the reasons the decision API gives for a decision: `ok` (admitted),
 * `rate_limited` (429), `cost_exceeds_limit` (413: no limit of the plan allows that cost at once),
 * `store_unavailable` (503: the server's shared store is down and this operation fails closed),
 * `unknown_key` (401) and `suspended` (403).
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

/** CustomerRef names the customer to decide for: by API key or by Ratekeeper's customer id, never both. */
export type CustomerRef = { key: string; customerId?: never } | { customerId: number; key?: never };

/**
 * DecisionRequest is one question to the decision API: may this customer do `operation` now,
 * at a price of `cost` tokens (a whole number from 1 to MAX_COST, 1 by default)? With `peek: true` the
 * answer is computed without taking any tokens.
 */
export type DecisionRequest = CustomerRef & {
  operation: Operation;
  cost?: number;
  peek?: boolean;
};

/** BatchDecisionRequest is the body of POST /api/v1/decisions/batch: 1 to 1,000 requests. */
export interface BatchDecisionRequest {
  decisions: DecisionRequest[];
}

/** PlanRef is the plan a customer is on. */
export interface PlanRef {
  id: number;
  slug: string;
  name: string;
}

/** DecisionCustomer is the customer a decision was made for, with its plan. */
export interface DecisionCustomer {
  id: number;
  name: string;
  plan: PlanRef;
}

/** BindingLimit is the limit that decided: `count` tokens per `periodMs` milliseconds, named `policy`. */
export interface BindingLimit {
  /** policy is the limit's name in the RateLimit fields, e.g. "read-5-per-1s". */
  policy: string;
  count: number;
  periodMs: number;
}

/**
 * Problem is an RFC 9457 problem document, the body to send a refused client (as
 * `application/problem+json`). A 429's `type` is the RateLimit draft's `quota-exceeded` problem
 * type, with `violated-policies` naming the policies that refused.
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  [field: string]: unknown;
}

/** RateLimitHeaders are header fields to send the client, by name: `RateLimit-Policy`, `RateLimit`, `Retry-After`. */
export type RateLimitHeaders = Record<string, string>;

/** QuotaPeriod is a quota's calendar period: a day, a week (from Monday) or a month (from the billing day). */
export type QuotaPeriod = "day" | "week" | "month";

/**
 * DecisionQuota is one quota of a decision: `policy` its name in the RateLimit fields, `count`
 * what the period admits (grants included), its calendar `period` and IANA `timeZone`, the tokens
 * `used` in the period before the decision and those `remaining` after it, the period
 * `[periodStartMs, periodEndMs)` (ms since 1970) and `resetAfterMs` until it ends (whole ms).
 */
export interface DecisionQuota {
  policy: string;
  count: number;
  period: QuotaPeriod;
  timeZone: string;
  used: number;
  remaining: number;
  periodStartMs: number;
  periodEndMs: number;
  resetAfterMs: number;
}

/**
 * Decision is the decision API's answer to one DecisionRequest. `status` is the HTTP status the
 * caller should answer its own client, `headers` the exact fields to send it (on every answer,
 * admitted or not), and `problem` the body of a refusal (null when admitted).
 */
export interface Decision {
  allowed: boolean;
  reason: DecisionReason;
  status: number;
  customer: DecisionCustomer | null;
  operation: Operation;
  cost: number;
  /** remaining is the tokens left in the binding bucket; null when there are no limits or no customer. */
  remaining: number | null;
  limit: BindingLimit | null;
  /** resetAfterMs is the milliseconds until the binding bucket is full again. */
  resetAfterMs: number | null;
  /** retryAfterMs is the milliseconds to wait before retrying: 0 when allowed, null when it can never pass. */
  retryAfterMs: number | null;
  headers: RateLimitHeaders;
  problem: Problem | null;
  /** quotas are the class's quotas, present only when the customer's limits of the class have any. */
  quotas?: DecisionQuota[];
}

/** BatchDecisionResponse is the answer to a batch: one Decision per request, in order. */
export interface BatchDecisionResponse {
  results: Decision[];
}

/**
 * SERVICE_TOKEN_SCOPES are what a service token may do: `decide` (take tokens, and peek) and
 * `peek` (ask without taking, `peek: true` only).
 */
export const SERVICE_TOKEN_SCOPES = ["decide", "peek"] as const;

/** ServiceTokenScope is one of SERVICE_TOKEN_SCOPES. */
export type ServiceTokenScope = (typeof SERVICE_TOKEN_SCOPES)[number];

/**
 * ServiceTokenInfo is the answer to GET /api/v1/service-token: the calling token as Ratekeeper
 * knows it, its `prefix` the first 12 characters (never the token).
 */
export interface ServiceTokenInfo {
  id: number;
  name: string;
  prefix: string;
  scopes: ServiceTokenScope[];
}
