import { type HttpAnswer, problemAnswer } from "./answer";

/** pathOfTarget is a request target's path (`/a/b` of `/a/b?c#d`), without its query or fragment. */
export function pathOfTarget(target: string): string {
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

/**
 * malformedPath tells whether the path of a request target (`/a/b?c`) holds percent-encoding
 * that does not decode to UTF-8 (`%E0%A4%A`, a lone `%`). Next's router throws on such paths
 * before any handler runs, so the server entry refuses them first, with a 400.
 */
export function malformedPath(target: string): boolean {
  try {
    decodeURIComponent(pathOfTarget(target));
    return false;
  } catch {
    return true;
  }
}

/** MALFORMED_PATH is the problem the server entry answers for a path `malformedPath` refuses. */
export const MALFORMED_PATH = {
  status: 400,
  title: "Malformed request path",
  detail: "The path is not valid percent-encoding.",
} as const;

/** MALFORMED_PATH_ANSWER is MALFORMED_PATH as an answer, which both server entries send. */
export const MALFORMED_PATH_ANSWER: HttpAnswer = problemAnswer(
  MALFORMED_PATH.status,
  MALFORMED_PATH.title,
  { detail: MALFORMED_PATH.detail },
);

/**
 * REQUEST_TARGET_HEADER carries a page request's target (path and query, as sent) from the
 * server entry to the dashboard's layout, which Next does not tell where it is rendering: a
 * signed-out visit is sent to sign in with the whole target as `next`. The entry replaces any
 * copy a client sends.
 */
export const REQUEST_TARGET_HEADER = "x-ratekeeper-request-target";
