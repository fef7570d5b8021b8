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

/** Reporter hears of every failed and every successful call to Ratekeeper. */
export interface Reporter {
  /** failed hears of an outage: Ratekeeper could not be asked. */
  failed(error: RatekeeperError): void;
  /** misconfigured hears of Ratekeeper refusing the client itself (its token, its URL). */
  misconfigured(error: RatekeeperError): void;
  /** succeeded hears of a call Ratekeeper answered. */
  succeeded(): void;
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

/**
 * createReporter hands every error to `onError` when one is given (an error it throws is
 * swallowed: reporting must not break a request). A misconfiguration is always logged with
 * `logger.error`, at most once every MISCONFIGURED_LOG_INTERVAL_MS on the `now` clock (the line
 * counts the calls since the last one), and its end with `logger.info`. An outage is logged,
 * without `onError` only, with one `logger.warn` when Ratekeeper becomes unreachable and one
 * `logger.info` when it answers again: noticed without a line per request.
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
  let misconfiguredSince: number | undefined;
  let lastLine = 0;
  let unreported = 0;
  const consequence =
    options.onMisconfigured === "admit"
      ? 'Requests are admitted without limits until it is fixed (onMisconfigured: "admit").'
      : 'Every request is refused with 503 until it is fixed (onMisconfigured: "refuse").';
  return {
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
      const at = now();
      if (misconfiguredSince !== undefined && at - lastLine < MISCONFIGURED_LOG_INTERVAL_MS) {
        unreported++;
        return;
      }
      const since =
        unreported > 0 ? ` ${unreported} more calls so refused since the last line.` : "";
      misconfiguredSince ??= at;
      lastLine = at;
      unreported = 0;
      logger.error(`[ratekeeper] Misconfigured: ${sentence(error.message)} ${consequence}${since}`);
    },
    succeeded() {
      if (misconfiguredSince !== undefined) {
        misconfiguredSince = undefined;
        unreported = 0;
        logger.info(
          "[ratekeeper] Ratekeeper accepts this service's calls again; requests are decided.",
        );
      }
      if (!failing) return;
      failing = false;
      logger.info("[ratekeeper] Ratekeeper answers again; requests are decided.");
    },
  };
}
