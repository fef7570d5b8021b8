import { countOf } from "@/lib/format";
import { type ProblemMembers, problemDocument, type Refusal } from "@/lib/schemas/problem.schema";
import type { DecisionReason, Operation } from "@/lib/vocabulary";
import type { AuthorizationProblem } from "./api-key";
import type { Verdict } from "./decide";
import { policyName, quotaPolicyName } from "./headers";

/**
 * QUOTA_EXCEEDED is the problem type of a 429 in the RateLimit fields draft
 * (draft-ietf-httpapi-ratelimit-headers, "Problem Types"): the request exceeds one or more quota
 * policies, named in the `violated-policies` member as they are in `RateLimit-Policy`.
 */
export const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";

/** BEARER_CHALLENGE is what a 401 tells the client to send. */
export const BEARER_CHALLENGE = { "WWW-Authenticate": 'Bearer realm="ratekeeper"' } as const;

/**
 * requestsOf names a class's requests in a sentence: "reads", "writes", or "requests of the
 * exports class" (a class name is no English noun to make plural).
 */
export function requestsOf(operation: Operation): string {
  if (operation === "read" || operation === "write") return `${operation}s`;
  return `requests of the ${operation} class`;
}

function refusal(
  status: number,
  title: string,
  extra: ProblemMembers = {},
  headers: Record<string, string> = {},
): Refusal {
  return { status, body: problemDocument(status, title, extra), headers };
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

/** Credential is what a Bearer token stands for: a customer's API key, or a service token. */
export type Credential = "API key" | "service token";

const PLACEHOLDER: Record<Credential, string> = {
  "API key": "<key>",
  "service token": "<service token>",
};

/**
 * authorizationRefusal is the 401 for an Authorization field with no Bearer token (see
 * readBearer): missing, another scheme or a bare token ("Use the Bearer scheme"), or malformed.
 * Every reader of keys and service tokens answers these words.
 */
export function authorizationRefusal(
  problem: AuthorizationProblem,
  credential: Credential,
): Refusal {
  const send = `Send Authorization: Bearer ${PLACEHOLDER[credential]}`;
  switch (problem) {
    case "missing":
      return credential === "API key"
        ? missingKey()
        : refusal(
            401,
            "Missing service token",
            { detail: `${send}, created under Service tokens in the dashboard.` },
            BEARER_CHALLENGE,
          );
    case "not_bearer":
      // Regression: `Authorization: <key>` was answered "Missing API key".
      return refusal(
        401,
        "Use the Bearer scheme",
        {
          detail: `${send}: the Authorization field must start with "Bearer " before the ${credential}.`,
        },
        BEARER_CHALLENGE,
      );
    case "malformed":
      return refusal(
        401,
        "Malformed Authorization field",
        { detail: `${send}: one ${credential} after "Bearer", and nothing else.` },
        BEARER_CHALLENGE,
      );
  }
}

/**
 * identityRefusal answers a customer that cannot be decided for: a key that names none (401
 * "Unknown API key"), an id that names none (401 "Unknown customer": the decision API's
 * `customerId`), or a suspended customer (403).
 */
export function identityRefusal(
  reason: "unknown_key" | "suspended",
  by: "key" | "id" = "key",
): Refusal {
  if (reason === "suspended") return refusal(403, "Customer suspended");
  // Regression: an unknown customerId was answered "Unknown API key", though no key was sent.
  return by === "id"
    ? refusal(
        401,
        "Unknown customer",
        { detail: "No customer has this customerId." },
        BEARER_CHALLENGE,
      )
    : refusal(401, "Unknown API key", {}, BEARER_CHALLENGE);
}

const REFUSED: ReadonlySet<DecisionReason> = new Set([
  "rate_limited",
  "cost_exceeds_limit",
  "store_unavailable",
]);

/**
 * refusalOf is the answer to a refused decision (429, 413 or 503, with the RateLimit fields),
 * or null when the request was admitted. The 429 and the 413 name the policies that refused in
 * `violated-policies`, as `RateLimit-Policy` names them. The protected routes and every other caller send it as is.
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
        detail: `The shared rate-limit store cannot be reached; ${requestsOf(operation)} are refused until it returns.`,
      },
      { "Retry-After": String(Math.ceil(decision.details.retryAfterMs / 1000)) },
    );
  }
  if (verdict.reason === "cost_exceeds_limit") {
    // Regression: the 413 named no policy. These are the limits whose full bucket holds less.
    const violated = decision.details.buckets
      .filter((bucket) => bucket.limit.count < cost)
      .map((bucket) => policyName(operation, bucket.limit));
    for (const q of decision.details.quotas ?? []) {
      if (q.quota.count < cost) violated.push(quotaPolicyName(operation, q));
    }
    return refusal(
      413,
      "Request exceeds the plan's limit",
      {
        detail: `This request costs ${countOf(cost, "token")}, more than a limit of the plan allows at once: ${violated.join(", ")}.`,
        "violated-policies": violated,
      },
      headers,
    );
  }
  const violated = decision.details.buckets
    .filter((bucket) => !bucket.allowed)
    .map((bucket) => policyName(operation, bucket.limit));
  const quotas = (decision.details.quotas ?? []).filter((q) => !q.allowed);
  for (const q of quotas) violated.push(quotaPolicyName(operation, q));
  const reached =
    quotas.length > 0 && violated.length === quotas.length
      ? `Quota of the ${customer.planSlug} plan used up for ${requestsOf(operation)} until ${new Date(
          Math.max(...quotas.map((q) => q.periodEndMs)),
        ).toISOString()}.`
      : `Rate limit of the ${customer.planSlug} plan reached for ${requestsOf(operation)}.`;
  return refusal(
    429,
    "Too many requests",
    {
      type: QUOTA_EXCEEDED,
      detail: reached,
      "violated-policies": violated,
      retryAfterSeconds: Number(headers["Retry-After"]),
    },
    headers,
  );
}
