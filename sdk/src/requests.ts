import { unknownKeyProblem } from "./problems.js";
import {
  CLASS_NAME_PATTERN,
  DEFAULT_CLASSES,
  type Decision,
  type DecisionRequest,
  type Operation,
} from "./types.js";

/**
 * MAX_KEY_LENGTH is the longest customer key (characters) worth asking about. Ratekeeper's keys are
 * 35 characters ("rk_" and 32); a longer string, an empty one or one with whitespace or control
 * characters names no customer and is answered `unknown_key` without a call.
 */
export const MAX_KEY_LENGTH = 256;

/** MAX_BATCH is how many decisions one call to the batch endpoint may carry. */
export const MAX_BATCH = 1000;

/**
 * MAX_COST is the most tokens one request may cost: 1,000,000, the largest count a limit may have
 * on the server, so a dearer request could pass no bucket. It mirrors the server's one cost rule
 * (lib/schemas/cost.schema.ts in Ratekeeper's repository); a test holds the two equal.
 */
export const MAX_COST = 1_000_000;

/** COST_RULE is the cost rule in the server's words: a cost out of it is a RangeError saying so. */
export const COST_RULE = `Cost must be a whole number from 1 to ${MAX_COST.toLocaleString("en-US")}`;

/** isCost reports whether `value` is a whole number from 1 to MAX_COST. */
export function isCost(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_COST;
}

/** WireRequest is a DecisionRequest with only the fields the decision API knows, ready to send. */
export type WireRequest = Record<string, unknown>;

/** plausibleKey reports whether `key` could be a customer's API key (see MAX_KEY_LENGTH). */
export function plausibleKey(key: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
  return key.length > 0 && key.length <= MAX_KEY_LENGTH && !/[\s\x00-\x1f\x7f]/.test(key);
}

function isPositiveSafeInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/**
 * wireRequest checks a DecisionRequest and returns the body to send, with only the fields the
 * decision API knows. A malformed request is the application's mistake, so it throws: a
 * TypeError for a wrong shape or type, a RangeError for a cost (see COST_RULE) or id out of range.
 */
export function wireRequest(request: DecisionRequest): WireRequest {
  if (typeof request !== "object" || request === null) {
    throw new TypeError("A decision request must be an object");
  }
  const { key, customerId, operation, cost, peek } = request as Record<string, unknown>;
  const body: WireRequest = {};
  if (key !== undefined && customerId !== undefined) {
    throw new TypeError("A decision request names the customer by key or by customerId, not both");
  }
  if (key !== undefined) {
    if (typeof key !== "string") throw new TypeError("key must be a string");
    body.key = key;
  } else if (customerId !== undefined) {
    if (!isPositiveSafeInteger(customerId)) {
      throw new RangeError("customerId must be a positive safe integer");
    }
    body.customerId = customerId;
  } else {
    throw new TypeError("A decision request needs a key or a customerId");
  }
  if (typeof operation !== "string" || !CLASS_NAME_PATTERN.test(operation)) {
    throw new TypeError(
      `operation must be the name of an operation class (such as ${DEFAULT_CLASSES.join(" or ")}): a lowercase letter, then up to 31 lowercase letters, digits or hyphens`,
    );
  }
  body.operation = operation;
  if (cost !== undefined) {
    if (!isCost(cost)) throw new RangeError(`${COST_RULE}, got ${String(cost)}`);
    body.cost = cost;
  }
  if (peek !== undefined) {
    if (typeof peek !== "boolean") throw new TypeError("peek must be a boolean");
    body.peek = peek;
  }
  return body;
}

/**
 * Verdict is what a decision made without Ratekeeper's buckets says: whether it admits, why, the
 * status, the wait before a retry (ms), the header fields and the problem.
 */
export type Verdict<R extends string> = Pick<
  Decision,
  "allowed" | "status" | "retryAfterMs" | "headers" | "problem"
> & { reason: R };

/**
 * LocalDecision is a Decision whose `reason` is `R`, made without Ratekeeper's buckets.
 */
export type LocalDecision<R extends string> = Omit<Decision, "reason"> & { reason: R };

/**
 * localDecision is the decision for `body` that `verdict` makes without Ratekeeper's buckets (a
 * stand-in, or an answer Ratekeeper would give without them): no customer, no remaining tokens,
 * limit or reset; the request's operation and cost (1 when it names none).
 */
export function localDecision<R extends string>(
  body: WireRequest,
  verdict: Verdict<R>,
): LocalDecision<R> {
  const { allowed, reason, status, retryAfterMs, headers, problem } = verdict;
  return {
    allowed,
    reason,
    status,
    customer: null,
    operation: body.operation as Operation,
    cost: (body.cost as number | undefined) ?? 1,
    remaining: null,
    limit: null,
    resetAfterMs: null,
    retryAfterMs,
    headers,
    problem,
  };
}

/**
 * unknownKeyDecision is the decision for a key that cannot name a customer, made without asking
 * Ratekeeper: 401 with the unknown-key problem, as Ratekeeper itself would answer.
 */
export function unknownKeyDecision(body: WireRequest): Decision {
  return localDecision(body, {
    allowed: false,
    reason: "unknown_key",
    status: 401,
    retryAfterMs: null,
    headers: {},
    problem: unknownKeyProblem(),
  });
}

/** answerableLocally reports whether a request names a key that no customer can have. */
export function answerableLocally(body: WireRequest): boolean {
  return typeof body.key === "string" && !plausibleKey(body.key);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "string")
  );
}

/**
 * asDecision returns `value` as a Decision when it has what an answer to a client needs (allowed,
 * reason, an HTTP status, string headers, a problem object or null), else null.
 */
export function asDecision(value: unknown): Decision | null {
  if (typeof value !== "object" || value === null) return null;
  const d = value as Record<string, unknown>;
  const statusOk =
    typeof d.status === "number" &&
    Number.isInteger(d.status) &&
    d.status >= 200 &&
    d.status <= 599;
  const problemOk = d.problem === null || d.problem === undefined || typeof d.problem === "object";
  if (
    typeof d.allowed !== "boolean" ||
    typeof d.reason !== "string" ||
    !statusOk ||
    !isStringRecord(d.headers) ||
    !problemOk
  ) {
    return null;
  }
  return { ...(d as unknown as Decision), problem: (d.problem as Decision["problem"]) ?? null };
}
