import type { RatekeeperError } from "./errors.js";
import { UNAVAILABLE_RETRY_AFTER_S, unavailableProblem } from "./problems.js";
import type { WireRequest } from "./requests.js";
import type { Decision, Operation } from "./types.js";

/**
 * OnUnavailable is what a decision becomes when Ratekeeper cannot be asked: `open` admits the
 * request (availability first: an outage of Ratekeeper is not an outage of the API), `closed`
 * refuses it with 503 (protection first: no request passes unmetered).
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

/** DecideResult is Ratekeeper's Decision, or the stand-in made by `onUnavailable` when it could not be asked. */
export type DecideResult = Decision | UnavailableDecision;

/** unavailableDecision is the stand-in decision for `body` under `policy`, carrying the error. */
export function unavailableDecision(
  policy: OnUnavailable,
  body: WireRequest,
  error: RatekeeperError,
): UnavailableDecision {
  const open = policy === "open";
  return {
    allowed: open,
    reason: "ratekeeper_unavailable",
    status: open ? 200 : 503,
    customer: null,
    operation: body.operation as Operation,
    cost: (body.cost as number | undefined) ?? 1,
    remaining: null,
    limit: null,
    resetAfterMs: null,
    retryAfterMs: open ? 0 : UNAVAILABLE_RETRY_AFTER_S * 1000,
    headers: open ? {} : { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) },
    problem: open ? null : unavailableProblem(),
    error,
  };
}

/** Reporter hears of every failed and every successful call to Ratekeeper. */
export interface Reporter {
  failed(error: RatekeeperError): void;
  succeeded(): void;
}

/** Logger is where the default reporter writes: `console` by default. */
export interface Logger {
  warn(message: string): void;
  info(message: string): void;
}

/**
 * createReporter hands every error to `onError` when one is given (an error it throws is
 * swallowed: reporting must not break a request). Without one, it logs to `logger` only when
 * Ratekeeper becomes unreachable and when it answers again, so an outage is noticed without one
 * line per request.
 */
export function createReporter(
  policy: OnUnavailable,
  onError: ((error: RatekeeperError) => void) | undefined,
  logger: Logger = console,
): Reporter {
  if (onError) {
    return {
      failed(error) {
        try {
          onError(error);
        } catch {
          // The application's reporter failed; the request goes on regardless.
        }
      },
      succeeded() {},
    };
  }
  let failing = false;
  return {
    failed(error) {
      if (failing) return;
      failing = true;
      const consequence =
        policy === "open"
          ? "failing open: requests are admitted without a decision"
          : "failing closed: requests are refused with 503";
      logger.warn(`[ratekeeper] ${error.message}; ${consequence} until it answers again.`);
    },
    succeeded() {
      if (!failing) return;
      failing = false;
      logger.info("[ratekeeper] Ratekeeper answers again; requests are decided.");
    },
  };
}
