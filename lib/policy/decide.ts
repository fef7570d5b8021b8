import type { Clock } from "@/lib/limiter";
import type { Metrics } from "@/lib/metrics";
import { COST_RULE, isCost } from "@/lib/schemas/cost.schema";
import type { TrafficLog } from "@/lib/usage/traffic-log";
import type { UsageRecorder } from "@/lib/usage/usage-counter";
import type { DecisionReason, Operation } from "@/lib/vocabulary";
import { presentedKeyHash } from "./api-key";
import type { Decision, DecisionStore } from "./decision-store";
import { rateLimitHeaders } from "./headers";
import type { RequestInput } from "./policy-limiter";
import type { CustomerPolicy, PolicySnapshot } from "./snapshot";

/**
 * DecisionContext is what deciding needs of the process: the store, the clock and the counters
 * (Prometheus, the live traffic log, the usage rollups).
 */
export interface DecisionContext {
  decisions: DecisionStore;
  clock: Clock;
  metrics: Metrics;
  traffic: TrafficLog;
  usage: UsageRecorder;
}

/** Verdict is a decided request: why, the limiter's decision, and the fields to send the client. */
export interface Verdict {
  reason: DecisionReason;
  allowed: boolean;
  customer: CustomerPolicy;
  operation: Operation;
  cost: number;
  /** now is the wall-clock time (ms) of the decision, the one the traffic log records. */
  now: number;
  decision: Decision;
  /** headers are the RateLimit fields (and Retry-After on a refusal) for the client. */
  headers: Record<string, string>;
}

/** Identity is the customer a key belongs to, or why it cannot be decided for. */
export type Identity =
  | { ok: true; customer: CustomerPolicy }
  | { ok: false; reason: "unknown_key" | "suspended"; customer?: CustomerPolicy };

/** identify looks an API key up in the policy snapshot (by its hash): no tokens are involved. */
export function identify(snapshot: PolicySnapshot, key: string): Identity {
  return admit(snapshot.byKeyHash.get(presentedKeyHash(key)));
}

/** identifyById looks a customer up by id, with the same answers as `identify`. */
export function identifyById(snapshot: PolicySnapshot, customerId: number): Identity {
  return admit(snapshot.byId.get(customerId));
}

function admit(customer: CustomerPolicy | undefined): Identity {
  if (!customer) return { ok: false, reason: "unknown_key" };
  if (customer.status !== "active") return { ok: false, reason: "suspended", customer };
  return { ok: true, customer };
}

/** DecideOptions: `peek` decides without taking a token (and records nothing). */
export interface DecideOptions {
  peek?: boolean;
}

function reasonOf(decision: Decision): DecisionReason {
  if (decision.source === "unavailable") return "store_unavailable";
  if (decision.details.allowed) return "ok";
  // A cost above a limit's count can never pass: its bucket's wait is infinite.
  return decision.details.retryAfterMs === Number.POSITIVE_INFINITY
    ? "cost_exceeds_limit"
    : "rate_limited";
}

/**
 * decide is the one decision path of the app: it takes `cost` tokens from the customer's buckets
 * for `operation` in one all-or-nothing decision (and evaluates the customer's dry-run limits,
 * which never refuse) and records it: the usage rollups count every decision (a fail-closed
 * refusal as "unavailable", one refused for its cost as "too_large" with no tokens requested, a
 * dry-run limit's would-be refusals per limit); the decision counter and the live traffic log
 * count those the store made; the latency histogram times the store's call. A peek records
 * nothing. Every caller (the protected routes, the decision API, the gateway, the dashboard's
 * test request) goes through here and maps the reason with `statusOf`, so none can answer
 * differently. It answers at once when the store does (in memory) and with a Promise when the
 * store does (Redis): callers await it, and a batch of in-memory decisions makes no Promise at
 * all. A cost outside the one cost rule (cost.schema.ts) is the caller's mistake, a RangeError
 * before anything is taken or counted: every surface validates it first.
 */
export function decide(
  ctx: DecisionContext,
  customer: CustomerPolicy,
  operation: Operation,
  cost: number,
  options: DecideOptions = {},
): Verdict | Promise<Verdict> {
  // Regression: a cost of 1e12 was refused (413) and then counted as tokens requested.
  if (!isCost(cost)) throw new RangeError(`${COST_RULE}, got ${cost}`);
  const now = ctx.clock.now();
  const input: RequestInput = { customer, operation, now };
  if (options.peek === true) {
    const peeked = ctx.decisions.peek(input, cost);
    return peeked instanceof Promise
      ? peeked.then((made) => verdictOf(customer, operation, cost, now, made))
      : verdictOf(customer, operation, cost, now, peeked);
  }
  const started = ctx.metrics.decisionStarted();
  const decision = ctx.decisions.decide(input, cost);
  return decision instanceof Promise
    ? decision.then((made) => record(ctx, input, cost, started, made))
    : record(ctx, input, cost, started, decision);
}

function record(
  ctx: DecisionContext,
  { customer, operation, now }: RequestInput,
  cost: number,
  started: number,
  decision: Decision,
): Verdict {
  ctx.metrics.decisionTimed(decision.source, started);
  const verdict = verdictOf(customer, operation, cost, now, decision);
  const { allowed } = decision.details;
  const available = verdict.reason !== "store_unavailable";
  // Regression: a 413 counted as a refusal by the limits, and its cost as tokens requested (a
  // customer with three of them was "near its limit" with 3,000,000 tokens requested).
  const tooLarge = verdict.reason === "cost_exceeds_limit";
  ctx.usage.record(
    customer.id,
    customer.planId,
    operation,
    !available ? "unavailable" : allowed ? "allowed" : tooLarge ? "too_large" : "denied",
    tooLarge ? 0 : cost,
    decision.details.tokensConsumed,
    now,
  );
  const dryRun = decision.dryRun;
  if (dryRun !== undefined && !dryRun.allowed) {
    for (const limit of dryRun.refusedBy) {
      ctx.usage.recordDryRun(customer.id, customer.planId, operation, dryRun.source, limit, now);
    }
  }
  if (available) {
    ctx.metrics.decision(customer.planSlug, operation, allowed);
    if (!allowed && !tooLarge) {
      for (const q of decision.details.quotas ?? []) {
        if (!q.allowed) ctx.metrics.quotaRefusal(customer.planSlug, operation, q.quota.period);
      }
    }
    ctx.traffic.record(customer.id, operation, allowed, now, decision.details.tokensConsumed);
  }
  return verdict;
}

function verdictOf(
  customer: CustomerPolicy,
  operation: Operation,
  cost: number,
  now: number,
  decision: Decision,
): Verdict {
  return {
    reason: reasonOf(decision),
    allowed: decision.details.allowed,
    customer,
    operation,
    cost,
    now,
    decision,
    headers: rateLimitHeaders(operation, decision.details),
  };
}

/** STATUS_OF_REASON is the HTTP status every caller answers for a reason. */
export const STATUS_OF_REASON: Readonly<Record<DecisionReason, number>> = {
  ok: 200,
  rate_limited: 429,
  cost_exceeds_limit: 413,
  store_unavailable: 503,
  unknown_key: 401,
  suspended: 403,
};

/** statusOf maps a decision's reason to the HTTP status a protected request answers. */
export function statusOf(reason: DecisionReason): number {
  return STATUS_OF_REASON[reason];
}
