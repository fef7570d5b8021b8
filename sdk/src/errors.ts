/**
 * RatekeeperErrorKind says why no decision could be had from Ratekeeper:
 * - `timeout`: no complete answer within `timeoutMs`;
 * - `network`: the request failed (connection refused, DNS, TLS, reset);
 * - `unauthorized`: Ratekeeper refused the service token (401: missing, unknown or revoked;
 *   403: the token lacks the `decide` scope), a configuration error;
 * - `http`: any other answer that is not 200 (5xx, 404 for a wrong URL, a 4xx for the request);
 * - `invalid_response`: a 200 whose body is not the decision API's JSON.
 */
export type RatekeeperErrorKind =
  | "timeout"
  | "network"
  | "unauthorized"
  | "http"
  | "invalid_response";

/**
 * RatekeeperError is why Ratekeeper could not be asked. The client never throws it into the
 * application: it is handed to `onError` and the decision falls back to `onUnavailable`.
 * `status` is the HTTP status when Ratekeeper answered, `body` its parsed JSON body when it had
 * one, `cause` the underlying error.
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
}
