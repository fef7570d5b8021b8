import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** settings hold instance-wide values, such as the generated admin password's hash. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** sessions are operator logins; only the SHA-256 hash of the cookie's token is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    actor: text("actor").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_expires").on(t.expiresAt)],
);
