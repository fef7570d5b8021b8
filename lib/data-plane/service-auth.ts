import { SERVICE_TOKEN_PREFIX } from "@/lib/auth/service-token";
import type { ServiceTokenUses } from "@/lib/auth/service-token-uses";
import type { Clock } from "@/lib/limiter";
import { presentedKeyHash, readBearer } from "@/lib/policy/api-key";
import { authorizationRefusal, BEARER_CHALLENGE } from "@/lib/policy/refusal";
import type { PolicySnapshot, ServiceTokenPolicy } from "@/lib/policy/snapshot";
import { problemDocument, type Refusal } from "@/lib/schemas/problem.schema";
import type { ServiceTokenRefusal, ServiceTokenScope } from "@/lib/vocabulary";

/**
 * ServiceAuth is the service token a caller presented, or the refusal to send with why (the
 * token named when a revoked one was presented, so its calls can be counted against it).
 */
export type ServiceAuth =
  | { ok: true; token: ServiceTokenPolicy }
  | {
      ok: false;
      refusal: Refusal;
      reason: Exclude<ServiceTokenRefusal, "scope">;
      tokenId?: number;
    };

function unauthorized(
  reason: Exclude<ServiceTokenRefusal, "scope">,
  title: string,
  detail: string,
  tokenId?: number,
): ServiceAuth {
  return {
    ok: false,
    refusal: {
      status: 401,
      body: problemDocument(401, title, { detail }),
      headers: { ...BEARER_CHALLENGE },
    },
    reason,
    ...(tokenId === undefined ? {} : { tokenId }),
  };
}

/**
 * authenticateService finds the live service token of an `Authorization: Bearer rks_…` header in
 * the policy snapshot (by its hash: no database query) and notes its use in memory. A missing,
 * unknown or revoked token, or one sent without the Bearer scheme, is a 401 that touches nothing;
 * a revoked one is named in the refusal (so its calls can be counted against it) and answered
 * "Revoked service token": only a holder of the token can learn that it was revoked, and its
 * service's operators need to know which of the two to fix.
 */
export function authenticateService(
  snapshot: PolicySnapshot,
  usage: ServiceTokenUses,
  clock: Clock,
  authorization: string | undefined,
): ServiceAuth {
  const bearer = readBearer(authorization);
  if (!bearer.ok) {
    return {
      ok: false,
      refusal: authorizationRefusal(bearer.problem, "service token"),
      reason: "missing",
    };
  }
  const presented = bearer.token;
  if (!presented.startsWith(SERVICE_TOKEN_PREFIX)) {
    return unauthorized(
      "unknown",
      "Unknown service token",
      "Service tokens start with rks_; a customer's API key goes in the body's key field.",
    );
  }
  // A service token digests as a key does (hashServiceToken): remembered for recent tokens.
  const hash = presentedKeyHash(presented);
  const token = snapshot.serviceTokens.get(hash);
  if (!token) {
    const revoked = snapshot.revokedServiceTokens.get(hash);
    if (revoked) {
      return unauthorized(
        "revoked",
        "Revoked service token",
        `The service token "${revoked.name}" was revoked; create a new one under Service tokens.`,
        revoked.id,
      );
    }
    return unauthorized(
      "unknown",
      "Unknown service token",
      "No service token matches this one: check that it was copied whole, or create one under Service tokens.",
    );
  }
  usage.touch(token.id, clock.now());
  return { ok: true, token };
}

/** missingScope is the 403 answer to a token that may not do what it asks. */
export function missingScope(scope: ServiceTokenScope, detail: string): Refusal {
  return {
    status: 403,
    body: problemDocument(403, `Service token lacks the ${scope} scope`, { detail }),
    headers: {},
  };
}
