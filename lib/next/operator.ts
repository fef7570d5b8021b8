import { SESSION_COOKIE } from "@/lib/auth/operator";
import { problem } from "@/lib/http/response";
import { getRuntime, type Runtime } from "@/lib/runtime";
import { guarded } from "./guarded";
import { writeRefusal } from "./write-guard";

/**
 * cookieValue reads one cookie from a request's Cookie header, percent-decoded. A value that is
 * not valid percent-encoding counts as absent, as it does for Next's own cookie reader.
 */
export function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        // Regression: `rk_session=%E0%A4%A` threw URIError, a 500 on every admin route.
        return undefined;
      }
    }
  }
  return undefined;
}

/** sessionActor is the operator signed in on a request's session cookie, or null. */
export function sessionActor(request: Request, runtime: Runtime = getRuntime()): string | null {
  return runtime.auth.actorOf(cookieValue(request, SESSION_COOKIE));
}

/** OperatorContext is what an admin handler receives: the operator, the runtime and the params. */
export interface OperatorContext<P> {
  request: Request;
  actor: string;
  runtime: Runtime;
  params: P;
}

/**
 * withOperator guards an admin handler: a state change must pass the write guard (403 from
 * another site, 415 for a body that is not JSON), then a request without a live operator
 * session gets 401; unexpected failures are a 500 that carries no internals (the cause is
 * logged).
 */
export function withOperator<P = Record<string, never>>(
  handler: (ctx: OperatorContext<P>) => Response | Promise<Response>,
) {
  return guarded(async (request: Request, route?: { params: Promise<P> }): Promise<Response> => {
    const refused = writeRefusal(request);
    if (refused) return refused;
    const runtime = getRuntime();
    const actor = sessionActor(request, runtime);
    if (!actor) return problem(401, "Not signed in");
    const params = (route ? await route.params : {}) as P;
    return await handler({ request, actor, runtime, params });
  });
}
