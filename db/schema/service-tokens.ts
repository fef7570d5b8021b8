import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { ServiceTokenScope } from "../../lib/vocabulary";

/**
 * serviceTokens authenticate the services that call the decision API (never customers). Only
 * the token's SHA-256 hash and a short prefix are stored; a revoked token keeps its row (and its
 * history in the audit log) with `revokedAt` set. Times are ms since the epoch; `lastUsedAt` is
 * written at most about once a minute per token, from memory.
 */
export const serviceTokens = sqliteTable(
  "service_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    tokenPrefix: text("token_prefix").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<ServiceTokenScope[]>().notNull(),
    createdAt: integer("created_at").notNull(),
    createdBy: text("created_by").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [check("service_tokens_name_not_empty", sql`length(trim(${t.name})) > 0`)],
);
