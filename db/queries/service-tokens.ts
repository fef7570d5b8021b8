import { desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { ServiceTokenView } from "../../lib/schemas/service-token-answer.schema";
import type { ServiceTokenScope } from "../../lib/vocabulary";
import type { Tx } from "../client";
import { serviceTokens } from "../schema";

/** ActiveServiceTokenRow is what the policy snapshot needs of a token that is not revoked. */
export interface ActiveServiceTokenRow {
  id: number;
  name: string;
  tokenHash: string;
  scopes: ServiceTokenScope[];
}

const viewColumns = {
  id: serviceTokens.id,
  name: serviceTokens.name,
  prefix: serviceTokens.tokenPrefix,
  scopes: serviceTokens.scopes,
  createdAt: serviceTokens.createdAt,
  createdBy: serviceTokens.createdBy,
  lastUsedAt: serviceTokens.lastUsedAt,
  revokedAt: serviceTokens.revokedAt,
};

/** listServiceTokens returns every token, revoked ones too, newest first. */
export function listServiceTokens(tx: Tx): ServiceTokenView[] {
  return tx.select(viewColumns).from(serviceTokens).orderBy(desc(serviceTokens.id)).all();
}

/** getServiceToken returns one token, or undefined. */
export function getServiceToken(tx: Tx, id: number): ServiceTokenView | undefined {
  return tx.select(viewColumns).from(serviceTokens).where(eq(serviceTokens.id, id)).get();
}

/** listActiveServiceTokens returns the tokens that are not revoked, with their hashes (for the policy). */
export function listActiveServiceTokens(tx: Tx): ActiveServiceTokenRow[] {
  return tx
    .select({
      id: serviceTokens.id,
      name: serviceTokens.name,
      tokenHash: serviceTokens.tokenHash,
      scopes: serviceTokens.scopes,
    })
    .from(serviceTokens)
    .where(isNull(serviceTokens.revokedAt))
    .all();
}

/** RevokedServiceTokenRow is what the policy snapshot keeps of a revoked token: whom its calls count against. */
export interface RevokedServiceTokenRow {
  id: number;
  name: string;
  tokenHash: string;
}

/** listRevokedServiceTokens returns the revoked tokens with their hashes (for the policy). */
export function listRevokedServiceTokens(tx: Tx): RevokedServiceTokenRow[] {
  return tx
    .select({ id: serviceTokens.id, name: serviceTokens.name, tokenHash: serviceTokens.tokenHash })
    .from(serviceTokens)
    .where(isNotNull(serviceTokens.revokedAt))
    .all();
}

/** insertServiceToken stores a new token (its hash and prefix) and returns its id. */
export function insertServiceToken(
  tx: Tx,
  values: {
    name: string;
    tokenHash: string;
    tokenPrefix: string;
    scopes: ServiceTokenScope[];
    createdBy: string;
  },
  now: number,
): number {
  return tx
    .insert(serviceTokens)
    .values({ ...values, createdAt: now })
    .returning({ id: serviceTokens.id })
    .get().id;
}

/** markServiceTokenRevoked sets a token's revocation time (ms). */
export function markServiceTokenRevoked(tx: Tx, id: number, now: number): void {
  tx.update(serviceTokens).set({ revokedAt: now }).where(eq(serviceTokens.id, id)).run();
}

/**
 * recordServiceTokenUse moves a token's last use forward to `at` (ms), never back: instances
 * that share the database each write what they saw.
 */
export function recordServiceTokenUse(tx: Tx, id: number, at: number): void {
  tx.update(serviceTokens)
    .set({ lastUsedAt: sql`max(coalesce(${serviceTokens.lastUsedAt}, 0), ${at})` })
    .where(eq(serviceTokens.id, id))
    .run();
}
