import {
  getServiceToken,
  insertServiceToken,
  listServiceTokens,
  markServiceTokenRevoked,
  recordServiceTokenUse,
} from "@/db/queries/service-tokens";
import { generateServiceToken } from "@/lib/auth/service-token";
import type { ServiceTokenCreate } from "@/lib/schemas/service-token.schema";
import type {
  CreatedServiceTokenAnswer,
  ServiceTokensAnswer,
  ServiceTokenView,
} from "@/lib/schemas/service-token-answer.schema";
import { change } from "./change";
import type { AdminContext } from "./context";
import type { Outcome } from "./plans";

const notFound = { ok: false, status: 404, title: "Service token not found" } as const;
const alreadyRevoked = { ok: false, status: 409, title: "Service token already revoked" } as const;

/** withLastUse adds the last use this process saw but has not written yet (the later wins). */
function withLastUse(rt: AdminContext, token: ServiceTokenView): ServiceTokenView {
  const seen = rt.serviceTokenUsage.lastUsed(token.id);
  if (seen === undefined || (token.lastUsedAt !== null && token.lastUsedAt >= seen)) return token;
  return { ...token, lastUsedAt: seen };
}

/**
 * serviceTokensOf lists every service token, newest first, with its latest known use and the
 * decision calls refused for it in the last hour (on the runtime's clock; this instance's
 * count), and the refused calls with a token that names none.
 */
export function serviceTokensOf(rt: AdminContext): ServiceTokensAnswer {
  const refused = rt.serviceTokenRefusals.lastHour(rt.clock.now());
  return {
    serviceTokens: listServiceTokens(rt.db).map((token) => ({
      ...withLastUse(rt, token),
      refusedLastHour: refused.byToken.get(token.id) ?? 0,
    })),
    unknownRefusedLastHour: refused.unknown,
  };
}

/**
 * createServiceToken stores a new token's hash and prefix, audits it, and rebuilds the policy so
 * the token works on the next request; the token itself is returned once, never stored.
 */
export function createServiceToken(
  rt: AdminContext,
  actor: string,
  input: ServiceTokenCreate,
): Outcome<CreatedServiceTokenAnswer> {
  const secret = generateServiceToken();
  return change(rt, actor, (tx, now) => {
    const id = insertServiceToken(
      tx,
      {
        name: input.name,
        scopes: input.scopes,
        tokenHash: secret.hash,
        tokenPrefix: secret.prefix,
        createdBy: actor,
      },
      now,
    );
    const serviceToken = getServiceToken(tx, id) as ServiceTokenView;
    const entry = {
      action: "service-token.create",
      entityType: "service-token",
      entityId: id,
    } as const;
    return {
      ok: true,
      value: { serviceToken, token: secret.token },
      audit: { ...entry, before: null, after: serviceToken },
    };
  });
}

/**
 * revokeServiceToken marks a token revoked, audits it, and rebuilds the policy: the token is
 * refused from the next request on (on other instances once they hear of the change).
 */
export function revokeServiceToken(
  rt: AdminContext,
  actor: string,
  id: number,
): Outcome<ServiceTokenView> {
  const result = change<ServiceTokenView>(rt, actor, (tx, now) => {
    const found = getServiceToken(tx, id);
    if (!found) return notFound;
    if (found.revokedAt !== null) return alreadyRevoked;
    const before = withLastUse(rt, found);
    // Its last use is written with the revocation: the token will not be used again.
    if (before.lastUsedAt !== null) recordServiceTokenUse(tx, id, before.lastUsedAt);
    markServiceTokenRevoked(tx, id, now);
    const after = { ...before, revokedAt: now };
    const entry = {
      action: "service-token.revoke",
      entityType: "service-token",
      entityId: id,
    } as const;
    return { ok: true, value: after, audit: { ...entry, before, after } };
  });
  if (result.ok) rt.serviceTokenUsage.forget(id);
  return result;
}
