/**
 * RatekeeperErrorKind says why no decision could be had from Ratekeeper. Two families:
 *
 * An outage (the decision follows `onUnavailable`):
 * - `timeout`: no complete answer within the timeout;
 * - `network`: the request failed (connection refused, DNS, TLS, reset);
 * - `http`: a 5xx, a 408 or a 429 (Ratekeeper, or a proxy before it, is down or busy), or any
 *   other status that is neither 200 nor a 4xx;
 * - `invalid_response`: a 200 whose body is not the answer Ratekeeper gives.
 *
 * A misconfiguration (the decision follows `onMisconfigured`, refused with 503 by default):
 * - `unauthorized`: Ratekeeper refused the service token itself (401: missing, unknown or
 *   revoked; 403: the token lacks the scope the call needs);
 * - `rejected`: Ratekeeper answered another 4xx (404: the URL is not Ratekeeper's, or a path
 *   prefix is wrong; 400, 405, 413, 415: a call it does not accept).
 */
export type RatekeeperErrorKind =
  | "timeout"
  | "network"
  | "http"
  | "invalid_response"
  | "unauthorized"
  | "rejected";

/** MISCONFIGURATION_KINDS are the kinds that say the client is configured wrong, not that Ratekeeper is down. */
export const MISCONFIGURATION_KINDS: readonly RatekeeperErrorKind[] = ["unauthorized", "rejected"];

/**
 * RatekeeperError is why Ratekeeper could not be asked. The client never throws it into the
 * application from a decision: it is handed to `onError` and the decision falls back to
 * `onUnavailable` or `onMisconfigured`; `verify()` rejects with it. `status` is the HTTP status
 * when Ratekeeper answered, `body` its parsed JSON body when it had one, `cause` the underlying
 * error.
 */
export class RatekeeperError extends Error {
  /** kind says what went wrong (see RatekeeperErrorKind). */
  readonly kind: RatekeeperErrorKind;
  /** status is the HTTP status Ratekeeper answered, when it answered. */
  readonly status: number | undefined;
  /** body is Ratekeeper's JSON answer (usually a problem document), when it sent one. */
  readonly body: unknown;

  constructor(
    kind: RatekeeperErrorKind,
    message: string,
    options: { status?: number; body?: unknown; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RatekeeperError";
    this.kind = kind;
    this.status = options.status;
    this.body = options.body;
  }

  /**
   * misconfigured reports whether the error says the client is configured wrong (its token
   * refused, its URL not Ratekeeper's) rather than that Ratekeeper cannot be reached.
   */
  get misconfigured(): boolean {
    return MISCONFIGURATION_KINDS.includes(this.kind);
  }
}

function problemField(body: unknown, field: "title" | "detail"): string | undefined {
  const value = (body as Record<string, unknown> | null | undefined)?.[field];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * tokenRefusal says in a few words why Ratekeeper answered 401, from its problem's title:
 * "Missing service token", "Revoked service token", "Unknown service token" (the server's titles,
 * held to these words by the contract test).
 */
function tokenRefusal(title: string): string {
  if (/missing/i.test(title)) return "none was received";
  if (/revoked/i.test(title)) return "it was revoked";
  if (/unknown/i.test(title)) return "it is unknown";
  return "it was not accepted";
}

/**
 * refusalSummary says in one sentence, fit for a problem body sent to the service's own clients
 * (no URL, no token), why Ratekeeper refused a call with `status`: its token refused (401:
 * none received, revoked or unknown; 403: naming the missing scope when Ratekeeper's problem names
 * it), or another 4xx.
 */
export function refusalSummary(status: number, body: unknown): string {
  const title = problemField(body, "title") ?? "";
  if (status === 401) return `Ratekeeper refused this service's token (${tokenRefusal(title)})`;
  if (status === 403) {
    const scope = /lacks the (\w+) scope/i.exec(title)?.[1];
    return `Ratekeeper refused this service's token (it lacks the ${scope ?? "needed"} scope)`;
  }
  return `Ratekeeper answered ${status} to this service's calls (a wrong URL, or a call it does not accept)`;
}

/**
 * refusalDetails is Ratekeeper's own words for a refusal, for the log: `401 Unknown service
 * token: No service token matches this one: …`, or just the status.
 */
export function refusalDetails(status: number, body: unknown): string {
  const title = problemField(body, "title");
  const detail = problemField(body, "detail");
  return `${status}${title ? ` ${title}` : ""}${detail ? `: ${detail}` : ""}`;
}
