import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * usageClaims record the Redis claims (closed minutes of the fleet's counts) already written to
 * the rollups, in the same transaction as their rows: a claim taken over after its claimer died
 * is written again only if it was not written before. Pruned after a day.
 */
export const usageClaims = sqliteTable(
  "usage_claims",
  {
    claimKey: text("claim_key").primaryKey(),
    appliedAt: integer("applied_at").notNull(),
  },
  (t) => [index("usage_claims_applied").on(t.appliedAt)],
);
