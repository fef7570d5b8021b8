import type { RatekeeperError } from "./errors.js";
import type { OnMisconfigured } from "./misconfigured.js";
import type { OnUnavailable } from "./unavailable.js";

/**
 * MISCONFIGURED_LOG_INTERVAL_MS is the least time (ms) between two error lines about a
 * misconfiguration: one line every 10 s at most, however many requests it refuses.
 */
export const MISCONFIGURED_LOG_INTERVAL_MS = 10_000;

/** Logger is where the client writes what its operators must see: `console` by default. */
export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
}

/**
 * Reporter is the client's standing with Ratekeeper and what it says about it: it hears of every
 * call, remembers the refusal that stands (Ratekeeper refused the client itself, and has not
 * accepted a decision call since), and writes the lines operators must see.
 */
export interface Reporter {
  /**
   * refusal is the misconfiguration that stands: the last error by which Ratekeeper refused the
   * client itself (its token, its URL), until Ratekeeper answers a decision call with 200.
   * Undefined when the client was never refused or was accepted since.
   */
  readonly refusal: RatekeeperError | undefined;
  /** failed hears of an outage (Ratekeeper could not be asked) while no refusal stands. */
  failed(error: RatekeeperError): void;
  /**
   * misconfigured hears of a decision call refused because of the client: refused by Ratekeeper
   * now (`error` misconfigured: it becomes the standing refusal), or not answered while a
   * refusal stands (`error` an outage: the refusal stays, and so does the refusing).
   */
  misconfigured(error: RatekeeperError): void;
  /** verifyRefused hears of `verify()` rejecting for a misconfiguration: it stands, unlogged (verify's caller hears it). */
  verifyRefused(error: RatekeeperError): void;
  /** answered hears of an answer that judges the request, not the client (a 400 about a key): the outage, if any, is over. */
  answered(): void;
  /** accepted hears of a 200 to a decision call: the client is accepted, and no outage or refusal stands. */
  accepted(): void;
}

/** ReporterOptions are the client's options the reporter needs; `now` reads the clock (ms). */
export interface ReporterOptions {
  onUnavailable: OnUnavailable;
  onMisconfigured: OnMisconfigured;
  onError: ((error: RatekeeperError) => void) | undefined;
  logger: Logger;
  now: () => number;
}

function sentence(message: string): string {
  return /[.?!]$/.test(message) ? message : `${message}.`;
}

/** moreCalls is the tail of a misconfiguration line: how many calls were refused since the last one. */
function moreCalls(count: number): string {
  if (count === 0) return "";
  return ` ${count} more ${count === 1 ? "call" : "calls"} so refused since the last line.`;
}

/**
 * createReporter hands every error to `onError` when one is given (an error it throws is
 * swallowed: reporting must not break a request). A misconfiguration is always logged with
 * `logger.error`, at most once every MISCONFIGURED_LOG_INTERVAL_MS on the `now` clock (the line
 * counts the calls since the last one), and its end with `logger.info`. An outage is logged,
 * without `onError` only, with one `logger.warn` when Ratekeeper becomes unreachable and one
 * `logger.info` when it answers again: noticed without a line per request. An outage while a
 * refusal stands is not logged as one: those calls are refused for the misconfiguration, and
 * counted in its lines.
 */
export function createReporter(options: ReporterOptions): Reporter {
  const { onError, logger, now } = options;
  const hand = (error: RatekeeperError) => {
    if (!onError) return;
    try {
      onError(error);
    } catch {
      // The application's reporter failed; the request goes on regardless.
    }
  };
  let failing = false;
  let refusal: RatekeeperError | undefined;
  // When the last line about the standing refusal was written; undefined before its first.
  let lastLine: number | undefined;
  let unreported = 0;
  const consequence =
    options.onMisconfigured === "admit"
      ? 'Requests are admitted without limits until it is fixed (onMisconfigured: "admit").'
      : 'Every request is refused with 503 until it is fixed (onMisconfigured: "refuse").';
  const stand = (error: RatekeeperError) => {
    if (refusal === undefined) {
      lastLine = undefined;
      unreported = 0;
    }
    refusal = error;
  };
  const endOutage = () => {
    if (!failing) return;
    failing = false;
    logger.info("[ratekeeper] Ratekeeper answers again; requests are decided.");
  };
  return {
    get refusal() {
      return refusal;
    },
    failed(error) {
      hand(error);
      if (onError || failing) return;
      failing = true;
      const policy =
        options.onUnavailable === "open"
          ? "failing open: requests are admitted without a decision"
          : "failing closed: requests are refused with 503";
      logger.warn(`[ratekeeper] ${error.message}; ${policy} until it answers again.`);
    },
    misconfigured(error) {
      hand(error);
      if (error.misconfigured) stand(error);
      const standing = refusal ?? error;
      const at = now();
      if (lastLine !== undefined && at - lastLine < MISCONFIGURED_LOG_INTERVAL_MS) {
        unreported++;
        return;
      }
      const since = moreCalls(unreported);
      lastLine = at;
      unreported = 0;
      logger.error(
        `[ratekeeper] Misconfigured: ${sentence(standing.message)} ${consequence}${since}`,
      );
    },
    verifyRefused(error) {
      stand(error);
    },
    answered: endOutage,
    accepted() {
      if (refusal !== undefined) {
        const logged = lastLine !== undefined;
        refusal = undefined;
        lastLine = undefined;
        unreported = 0;
        if (logged) {
          logger.info(
            "[ratekeeper] Ratekeeper accepts this service's calls again; requests are decided.",
          );
        }
      }
      endOutage();
    },
  };
}
