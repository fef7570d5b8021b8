import { SESSION_COOKIE } from "@/lib/auth/operator";
import { parseBody } from "@/lib/http/body";
import { clientAddressOf } from "@/lib/http/client-address";
import { answer, problem } from "@/lib/http/response";
import { guarded } from "@/lib/next/guarded";
import { cookieValue, sessionActor } from "@/lib/next/operator";
import { writeRefusal } from "@/lib/next/write-guard";
import { getRuntime } from "@/lib/runtime";
import { loginSchema } from "@/lib/schemas/session.schema";
import { sessionAnswerSchema, signedInAnswerSchema } from "@/lib/schemas/session-answer.schema";

function sessionCookie(request: Request, value: string, maxAgeSeconds: number): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** GET /api/admin/session tells whether the caller is signed in. */
export const GET = guarded((request: Request): Response => {
  const actor = sessionActor(request);
  return actor ? answer(sessionAnswerSchema, { actor }) : problem(401, "Not signed in");
});

/**
 * POST /api/admin/session signs the operator in with the admin password. It passes the admin
 * write guard first (403 from another site, 415 unless JSON). Failed attempts are limited to 10
 * a minute per client address (the socket's, or with TRUST_PROXY the one the trusted proxies
 * saw); successful ones cost nothing.
 */
export const POST = guarded(async (request: Request): Promise<Response> => {
  const refused = writeRefusal(request);
  if (refused) return refused;
  const runtime = getRuntime();
  const address = clientAddressOf(request);
  const guard = runtime.loginLimiter.peekWithDetails(address);
  if (!guard.allowed) {
    const retry = String(Math.max(1, Math.ceil(guard.retryAfterMs / 1000)));
    return problem(429, "Too many failed sign-in attempts", {}, { "Retry-After": retry });
  }
  const parsed = await parseBody(request, loginSchema);
  if (!parsed.ok) return parsed.response;
  const session = runtime.auth.login(parsed.data.password);
  if (!session) {
    runtime.loginLimiter.allow(address);
    return problem(401, "Wrong password", { errors: { password: ["Wrong password"] } });
  }
  const maxAge = Math.floor((session.expiresAt - runtime.clock.now()) / 1000);
  return answer(
    signedInAnswerSchema,
    { actor: "admin", expiresAt: session.expiresAt },
    { headers: { "Set-Cookie": sessionCookie(request, session.token, maxAge) } },
  );
});

/** DELETE /api/admin/session signs the operator out (after the same write guard as sign-in). */
export const DELETE = guarded((request: Request): Response => {
  const refused = writeRefusal(request);
  if (refused) return refused;
  const token = cookieValue(request, SESSION_COOKIE);
  if (token) getRuntime().auth.logout(token);
  return new Response(null, {
    status: 204,
    headers: { "Set-Cookie": sessionCookie(request, "", 0) },
  });
});
