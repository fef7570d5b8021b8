import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { RouteMethod } from "../../lib/schemas/route-rule.schema";

/**
 * routeRules are the gateway's route rules, in the order they are tried (`position`, from 0,
 * unique): a method ("*" or one) and a path pattern, then either unmetered, or an operation
 * class (null: the method's default) and a cost in tokens (null: 1). The list is saved whole.
 * Times are ms since the epoch. The class is checked against the known classes when saved.
 */
export const routeRules = sqliteTable(
  "route_rules",
  {
    position: integer("position").primaryKey(),
    method: text("method").$type<RouteMethod>().notNull(),
    pattern: text("pattern").notNull(),
    unmetered: integer("unmetered", { mode: "boolean" }).notNull().default(false),
    operation: text("operation"),
    cost: integer("cost"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    check("route_rules_position", sql`${t.position} >= 0`),
    check("route_rules_pattern", sql`substr(${t.pattern}, 1, 1) = '/'`),
    check("route_rules_unmetered", sql`${t.unmetered} IN (0, 1)`),
    check("route_rules_cost", sql`${t.cost} IS NULL OR (${t.cost} BETWEEN 1 AND 1000000)`),
    check(
      "route_rules_unmetered_alone",
      sql`${t.unmetered} = 0 OR (${t.operation} IS NULL AND ${t.cost} IS NULL)`,
    ),
  ],
);
