import { problem } from "@/lib/http/response";
import { consoleLogger, type Logger } from "@/lib/log";
import { getRuntime } from "@/lib/runtime";

/** loggerOf is the runtime's logger, or the console's when the runtime itself cannot be had. */
function loggerOf(): Logger {
  try {
    return getRuntime().log;
  } catch {
    return consoleLogger;
  }
}

/** internalError logs a handler's failure once, with its cause, and answers a bare 500 problem. */
export function internalError(
  request: Request | undefined,
  cause: unknown,
  headers: Record<string, string> = {},
): Response {
  const what = request ? `${request.method} ${new URL(request.url).pathname}` : "A request";
  loggerOf().error(`${what} failed`, cause);
  return problem(
    500,
    "Internal error",
    { detail: "The server could not answer this request; the cause is in its log." },
    headers,
  );
}

/**
 * guarded wraps a route handler so that whatever it throws becomes a 500 problem body (never an
 * empty answer, never the error's message or stack), with the cause logged once.
 */
export function guarded<A extends unknown[]>(
  handler: (...args: A) => Response | Promise<Response>,
): (...args: A) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (cause) {
      return internalError(args[0] instanceof Request ? args[0] : undefined, cause);
    }
  };
}
