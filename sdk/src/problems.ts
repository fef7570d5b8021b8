import type { Problem, RateLimitHeaders } from "./types.js";

/** PROBLEM_CONTENT_TYPE is the media type of an RFC 9457 problem document. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** BEARER_CHALLENGE is the WWW-Authenticate field of every 401: the client must send a Bearer key. */
export const BEARER_CHALLENGE = 'Bearer realm="ratekeeper"';

/** missingKeyProblem is the 401 body for a request that names no customer (no Bearer key). */
export function missingKeyProblem(): Problem {
  return {
    type: "about:blank",
    title: "Missing API key",
    status: 401,
    detail: "Send Authorization: Bearer <key>.",
  };
}

/**
 * authorizationProblem is the 401 body for an Authorization field that holds no Bearer key, in
 * the server's words: none at all (missingKeyProblem), a key without the Bearer scheme ("Use the
 * Bearer scheme"), or more than one token after "Bearer" ("Malformed Authorization field").
 */
export function authorizationProblem(authorization: string | null | undefined): Problem {
  const field = (authorization ?? "").trim();
  if (field === "" || /^Bearer$/i.test(field)) return missingKeyProblem();
  // Regression: `Authorization: <key>` was answered "Missing API key".
  if (!/^Bearer[ \t]/i.test(field)) {
    return {
      type: "about:blank",
      title: "Use the Bearer scheme",
      status: 401,
      detail:
        'Send Authorization: Bearer <key>: the Authorization field must start with "Bearer " before the API key.',
    };
  }
  return {
    type: "about:blank",
    title: "Malformed Authorization field",
    status: 401,
    detail: 'Send Authorization: Bearer <key>: one API key after "Bearer", and nothing else.',
  };
}

/** unknownKeyProblem is the 401 body for a key that names no customer. */
export function unknownKeyProblem(): Problem {
  return { type: "about:blank", title: "Unknown API key", status: 401 };
}

/** UNAVAILABLE_RETRY_AFTER_S is the Retry-After (seconds) of a 503 answered while Ratekeeper is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/** unavailableProblem is the 503 body answered, when failing closed, while Ratekeeper cannot be reached. */
export function unavailableProblem(): Problem {
  return {
    type: "about:blank",
    title: "Rate limiter unavailable",
    status: 503,
    detail: "The rate limiter cannot be reached; requests are refused until it returns.",
  };
}

/**
 * misconfiguredProblem is the 503 body answered while Ratekeeper refuses this service (its token
 * or its calls), under `onMisconfigured: "refuse"`; `summary` names the cause, without secrets.
 */
export function misconfiguredProblem(summary: string): Problem {
  return {
    type: "about:blank",
    title: "Rate limiter misconfigured",
    status: 503,
    detail: `${summary}; requests are refused until the service's configuration is fixed.`,
  };
}

/** fallbackProblem is the body of a refusal whose decision carried none: the status's own title. */
export function fallbackProblem(status: number): Problem {
  const titles: Record<number, string> = {
    401: "Unknown API key",
    403: "Customer suspended",
    413: "Request exceeds the plan's limit",
    429: "Too many requests",
    503: "Rate limit store unavailable",
  };
  return { type: "about:blank", title: titles[status] ?? "Request refused", status };
}

/** refusalHeaders are the fields of a refusal: the decision's own, and a Bearer challenge on a 401. */
export function refusalHeaders(status: number, headers: RateLimitHeaders): RateLimitHeaders {
  if (status !== 401) return headers;
  const hasChallenge = Object.keys(headers).some(
    (name) => name.toLowerCase() === "www-authenticate",
  );
  return hasChallenge ? headers : { ...headers, "WWW-Authenticate": BEARER_CHALLENGE };
}
