import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** auditLog records every operator change: when, who, what, and the entity before and after. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    before: text("before", { mode: "json" }),
    after: text("after", { mode: "json" }),
  },
  // The log reads newest first by (at, id), whole or filtered by action, actor or entity: one
  // index per filter, each ending in the order, so a page is a range scan at any size.
  (t) => [
    index("audit_log_at_id").on(t.at, t.id),
    index("audit_log_action").on(t.action, t.at, t.id),
    index("audit_log_actor").on(t.actor, t.at, t.id),
    index("audit_log_entity").on(t.entityType, t.entityId, t.at, t.id),
  ],
);
