import type { IncomingMessage, ServerResponse } from "node:http";
import { type HttpAnswer, problemAnswer } from "./answer";
import { writeAnswer } from "./node-io";
import { pathOfTarget } from "./request-target";

/** ErrorLog is where a failure's cause goes: the runtime's logger, or the console's. */
export interface ErrorLog {
  error(message: string, cause?: unknown): void;
}

/**
 * INTERNAL_ERROR_DETAIL is what a 500 tells the client: nothing of the cause, only where it is.
 */
export const INTERNAL_ERROR_DETAIL =
  "The server could not answer this request; the cause is in its log.";

/**
 * internalError is the one 500 of the house, for both front doors and the server entries: it
 * logs `<what> failed` with the cause once, and returns the problem answer, which carries no
 * internals (no message, no stack) and any `headers` the request had earned (its RateLimit
 * fields, when the decision was made before the failure).
 */
export function internalError(
  log: ErrorLog,
  what: string,
  cause: unknown,
  headers: Record<string, string> = {},
): HttpAnswer {
  log.error(`${what} failed`, cause);
  return problemAnswer(500, "Internal error", { detail: INTERNAL_ERROR_DETAIL }, headers);
}

/**
 * FailedRequest answers a node:http request whose handling threw (a bug): the server's 500.
 */
export type FailedRequest = (
  request: IncomingMessage,
  response: ServerResponse,
  cause: unknown,
) => void;

/**
 * failedRequest is internalError on node:http, over `log`: it writes the 500, or cuts the
 * connection when part of an answer has already gone out (a half answer must not look whole).
 */
export function failedRequest(log: ErrorLog): FailedRequest {
  return (request, response, cause) => {
    const what = `${request.method} ${pathOfTarget(request.url ?? "/")}`;
    const answer = internalError(log, what, cause);
    if (response.headersSent) response.destroy();
    else writeAnswer(response, answer);
  };
}
