import type { RatekeeperError } from "./errors.js";
import type { MisconfiguredDecision } from "./misconfigured.js";
import { UNAVAILABLE_RETRY_AFTER_S, unavailableProblem } from "./problems.js";
import { localDecision, type WireRequest } from "./requests.js";
import type { Decision } from "./types.js";

/**
 * OnUnavailable is what a decision becomes when Ratekeeper cannot be asked (a timeout, a network
 * failure, a 5xx, an answer that is not Ratekeeper's): `open` admits the request (availability
 * first: an outage of Ratekeeper is not an outage of the API), `closed` refuses it with 503
 * (protection first: no request passes unmetered). Ratekeeper refusing the client's token or
 * calls is not an outage: see OnMisconfigured; once it has refused them, an outage is answered
 * as that refusal until Ratekeeper accepts a decision call again.
 */
export type OnUnavailable = "open" | "closed";

/**
 * UnavailableDecision stands in for a Decision when Ratekeeper could not be asked (`error` says
 * why): allowed with status 200 and no fields when failing open; refused with 503, a
 * Retry-After of 1 s and a problem when failing closed.
 */
export interface UnavailableDecision extends Omit<Decision, "reason"> {
  reason: "ratekeeper_unavailable";
  error: RatekeeperError;
}

/**
 * DecideResult is Ratekeeper's Decision, or a stand-in: an UnavailableDecision (`onUnavailable`)
 * when Ratekeeper could not be asked, a MisconfiguredDecision (`onMisconfigured`) when it refused
 * the client itself. The stand-ins carry the `error`; tell them apart by `reason`.
 */
export type DecideResult = Decision | UnavailableDecision | MisconfiguredDecision;

/** unavailableDecision is the stand-in decision for `body` under `policy`, carrying the error. */
export function unavailableDecision(
  policy: OnUnavailable,
  body: WireRequest,
  error: RatekeeperError,
): UnavailableDecision {
  const open = policy === "open";
  const decision = localDecision(body, {
    allowed: open,
    reason: "ratekeeper_unavailable",
    status: open ? 200 : 503,
    retryAfterMs: open ? 0 : UNAVAILABLE_RETRY_AFTER_S * 1000,
    headers: open ? {} : { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) },
    problem: open ? null : unavailableProblem(),
  });
  return { ...decision, error };
}
