import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * quotaCounts keep the in-memory limiter's quota states across restarts (the full app without
 * Redis): per bucket key (`<customerId>:<class>`) and quota calendar id ("month:15:Europe/Berlin")
 * the start of the period counted (ms since the epoch) and the tokens used in it. Written with
 * the usage flush (only the states that changed), read once at start; a row of a past period is
 * ignored and deleted then. No foreign key: the key names a customer's bucket, not its row, and
 * a deleted customer's row only lasts until its period ends.
 */
export const quotaCounts = sqliteTable(
  "quota_counts",
  {
    key: text("key").notNull(),
    calendarId: text("calendar_id").notNull(),
    startMs: integer("start_ms").notNull(),
    used: integer("used").notNull(),
    /** updatedAt is when the row was last written (ms since the epoch). */
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.calendarId] })],
);
