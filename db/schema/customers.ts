import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CUSTOMER_STATUSES } from "../../lib/vocabulary";
import { plans } from "./plans";

/** customers call the API with a key; only its SHA-256 hash and a short prefix are stored. */
export const customers = sqliteTable(
  "customers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    planId: integer("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "restrict" }),
    status: text("status", { enum: CUSTOMER_STATUSES }).notNull().default("active"),
    apiKeyHash: text("api_key_hash").notNull().unique(),
    apiKeyPrefix: text("api_key_prefix").notNull(),
    /**
     * billingAnchorDay is the day of the month (1..31) the customer's monthly quotas start on; in
     * a month shorter than it, its last day. Set at creation (the UTC day of the month by default).
     */
    billingAnchorDay: integer("billing_anchor_day").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    check("customers_status", sql`${t.status} IN ('active', 'suspended')`),
    check("customers_name_not_empty", sql`length(trim(${t.name})) > 0`),
    check("customers_billing_anchor_day", sql`${t.billingAnchorDay} BETWEEN 1 AND 31`),
    index("customers_plan").on(t.planId),
    // The list by name pages through (name, id), case-insensitively.
    index("customers_name").on(sql`${t.name} COLLATE NOCASE`, t.id),
  ],
);
