import type { DecisionReason, Verdict } from "./decide";
import { policyName } from "./headers";

/** Refusal is a refused request's answer, independent of any HTTP framework. */
export interface Refusal {
  status: number;
  /** body is an RFC 9457 problem document. */
  body: { type: string; title: string; status: number; [field: string]: unknown };
  headers: Record<string, string>;
}

/**
 * QUOTA_EXCEEDED is the problem type of a 429 in the RateLimit fields draft
 * (draft-ietf-httpapi-ratelimit-headers, "Problem Types"): the request exceeds one or more quota
 * policies, named in the `violated-policies` member as they are in `RateLimit-Policy`.
 */
export const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";

/** BEARER_CHALLENGE is what a 401 tells the client to send. */
export const BEARER_CHALLENGE = { "WWW-Authenticate": 'Bearer realm="ratekeeper"' } as const;

function refusal(
  status: number,
  title: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Refusal {
  return { status, body: { type: "about:blank", title, status, ...extra }, headers };
}

/** missingKey is the refusal of a request without a Bearer key. */
export function missingKey(): Refusal {
  return refusal(
    401,
    "Missing API key",
    { detail: "Send Authorization: Bearer <key>." },
    BEARER_CHALLENGE,
  );
}

/** identityRefusal answers a key that names no customer (401) or a suspended one (403). */
export function identityRefusal(reason: "unknown_key" | "suspended"): Refusal {
  return reason === "unknown_key"
    ? refusal(401, "Unknown API key", {}, BEARER_CHALLENGE)
    : refusal(403, "Customer suspended");
}

const REFUSED: ReadonlySet<DecisionReason> = new Set([
  "rate_limited",
  "cost_exceeds_limit",
  "store_unavailable",
]);

/**
 * refusalOf is the answer to a refused decision (429, 413 or 503, with the RateLimit fields),
 * or null when the request was admitted. The protected routes and every other caller send it as is.
 */
export function refusalOf(verdict: Verdict): Refusal | null {
  if (!REFUSED.has(verdict.reason)) return null;
  const { operation, cost, customer, decision, headers } = verdict;
  if (verdict.reason === "store_unavailable") {
    // Redis is unreachable and this operation fails closed: not the customer's fault, so not 429.
    return refusal(
      503,
      "Rate limit store unavailable",
      {
        detail: `The shared rate-limit store cannot be reached; ${operation}s are refused until it returns.`,
      },
      { "Retry-After": String(Math.ceil(decision.details.retryAfterMs / 1000)) },
    );
  }
  if (verdict.reason === "cost_exceeds_limit") {
    return refusal(
      413,
      "Request exceeds the plan's limit",
      {
        detail: `This request costs ${cost} tokens, more than a limit of the plan allows at once.`,
      },
      headers,
    );
  }
  const violated = decision.details.buckets
    .filter((bucket) => !bucket.allowed)
    .map((bucket) => policyName(operation, bucket.limit));
  return {
    status: 429,
    body: {
      type: QUOTA_EXCEEDED,
      title: "Too many requests",
      status: 429,
      detail: `Rate limit of the ${customer.planSlug} plan reached for ${operation}s.`,
      "violated-policies": violated,
      retryAfterSeconds: Number(headers["Retry-After"]),
    },
    headers,
  };
}
