import { RatekeeperError } from "./errors.js";
import { callJson, type Transport } from "./transport.js";
import { SERVICE_TOKEN_SCOPES, type ServiceTokenInfo, type ServiceTokenScope } from "./types.js";

/** VERIFY_TIMEOUT_MS is how long (ms) `verify()` waits for Ratekeeper by default: a start-up check may wait. */
export const VERIFY_TIMEOUT_MS = 5_000;

/** SERVICE_TOKEN_PATH is where Ratekeeper describes the calling service token (GET). */
export const SERVICE_TOKEN_PATH = "api/v1/service-token";

/**
 * VerifyOptions tune `verify()`: the `scopes` the client needs (default `["decide"]`, what the
 * middleware and `decide()` without `peek` need; `["peek"]` for a client that only peeks), and
 * how long to wait, `timeoutMs` (default VERIFY_TIMEOUT_MS).
 */
export interface VerifyOptions {
  scopes?: readonly ServiceTokenScope[];
  timeoutMs?: number;
}

/** allows reports whether a token with `scopes` may do what `needed` names: decide may peek too. */
function allows(scopes: readonly ServiceTokenScope[], needed: ServiceTokenScope): boolean {
  return scopes.includes(needed) || (needed === "peek" && scopes.includes("decide"));
}

function neededScopes(options: VerifyOptions): readonly ServiceTokenScope[] {
  const scopes = options.scopes ?? ["decide"];
  if (
    !Array.isArray(scopes) ||
    !scopes.every((s) => (SERVICE_TOKEN_SCOPES as readonly string[]).includes(s))
  ) {
    throw new TypeError(`scopes must be a list of ${SERVICE_TOKEN_SCOPES.join(", ")}`);
  }
  return scopes;
}

function asServiceToken(answer: unknown): ServiceTokenInfo | null {
  const token = (answer as { serviceToken?: unknown } | null)?.serviceToken as
    | Record<string, unknown>
    | undefined;
  if (typeof token !== "object" || token === null) return null;
  const { id, name, prefix, scopes } = token;
  if (
    typeof id !== "number" ||
    typeof name !== "string" ||
    typeof prefix !== "string" ||
    !Array.isArray(scopes) ||
    !scopes.every((s) => typeof s === "string")
  ) {
    return null;
  }
  return { id, name, prefix, scopes: scopes as ServiceTokenScope[] };
}

/**
 * verifyToken asks Ratekeeper about the client's service token (GET /api/v1/service-token) and
 * resolves with it when it has every scope in `options.scopes`. It rejects with a
 * RatekeeperError otherwise: `unauthorized` for a token refused (401) or lacking a scope,
 * `rejected` for a URL that is not Ratekeeper's (404), or the outage kinds when it cannot ask.
 */
export async function verifyToken(
  transport: Transport,
  options: VerifyOptions = {},
): Promise<ServiceTokenInfo> {
  const needed = neededScopes(options);
  const answer = await callJson(transport, {
    method: "GET",
    path: SERVICE_TOKEN_PATH,
    timeoutMs: options.timeoutMs ?? VERIFY_TIMEOUT_MS,
  });
  const token = asServiceToken(answer);
  if (!token) {
    throw new RatekeeperError("invalid_response", "Ratekeeper's answer is not a service token", {
      status: 200,
      body: answer,
    });
  }
  const missing = needed.filter((scope) => !allows(token.scopes, scope));
  if (missing.length > 0) {
    const has = token.scopes.length > 0 ? token.scopes.join(", ") : "none";
    throw new RatekeeperError(
      "unauthorized",
      `The service token "${token.name}" (${token.prefix}…) lacks the ${missing.join(" and ")} scope this client needs (it has ${has}): create a token with it under Service tokens`,
      { status: 200, body: answer },
    );
  }
  return token;
}
