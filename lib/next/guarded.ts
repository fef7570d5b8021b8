import { internalError } from "@/lib/http/internal-error";
import { toResponse } from "@/lib/http/response";
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

/**
 * failedResponse answers a route handler's failure with the house's one 500 (internalError):
 * the cause logged once, a problem with no internals, and any `headers` the request had earned.
 */
export function failedResponse(
  request: Request | undefined,
  cause: unknown,
  headers: Record<string, string> = {},
): Response {
  const what = request ? `${request.method} ${new URL(request.url).pathname}` : "A request";
  return toResponse(internalError(loggerOf(), what, cause, headers));
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
      return failedResponse(args[0] instanceof Request ? args[0] : undefined, cause);
    }
  };
}
