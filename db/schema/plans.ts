import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** plans are what operators sell: each grants read and write limits (see plan-limits). */
export const plans = sqliteTable(
  "plans",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    check(
      "plans_slug_format",
      sql`${t.slug} GLOB '[a-z0-9]*' AND ${t.slug} NOT GLOB '*[^a-z0-9-]*'`,
    ),
    check("plans_name_not_empty", sql`length(trim(${t.name})) > 0`),
  ],
);
