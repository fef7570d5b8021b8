import { type RatekeeperError, refusalSummary } from "./errors.js";
import { misconfiguredProblem } from "./problems.js";
import { localDecision, type WireRequest } from "./requests.js";
import type { Decision } from "./types.js";

/**
 * OnMisconfigured is what a decision becomes when Ratekeeper refuses the client itself: its
 * service token (401: missing, unknown or revoked; 403: lacking the scope) or its calls (404 for
 * a URL that is not Ratekeeper's, another 4xx). `refuse` (the default) answers 503 with a
 * problem naming the cause, so a misconfiguration never turns limiting off in silence; `admit`
 * lets requests through unlimited while it lasts. Either way it is logged as an error. It lasts
 * until Ratekeeper answers a decision call with 200: a timeout or a network failure meanwhile
 * does not end it (a revoked token stays revoked while Ratekeeper is slow).
 */
export type OnMisconfigured = "refuse" | "admit";

/**
 * MisconfiguredDecision stands in for a Decision when Ratekeeper refused the client itself
 * (`error` says how): refused with 503 and a problem naming the cause under `refuse`, admitted
 * with status 200 and no fields under `admit`.
 */
export interface MisconfiguredDecision extends Omit<Decision, "reason"> {
  reason: "ratekeeper_misconfigured";
  error: RatekeeperError;
}

/** misconfiguredDecision is the stand-in decision for `body` under `policy`, carrying the error. */
export function misconfiguredDecision(
  policy: OnMisconfigured,
  body: WireRequest,
  error: RatekeeperError,
): MisconfiguredDecision {
  const admit = policy === "admit";
  const decision = localDecision(body, {
    allowed: admit,
    reason: "ratekeeper_misconfigured",
    status: admit ? 200 : 503,
    // Waiting does not fix a configuration: no Retry-After is promised.
    retryAfterMs: admit ? 0 : null,
    headers: {},
    problem: admit ? null : misconfiguredProblem(refusalSummary(error.status ?? 0, error.body)),
  });
  return { ...decision, error };
}
