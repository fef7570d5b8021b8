import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * operationClasses are the named kinds of request a plan or an override limits: `read` and
 * `write` are seeded by the migration that creates the table and never deleted; operators add
 * others. Plan limits and overrides reference a class by name (ON DELETE RESTRICT: a class in use
 * stays); usage rollups keep the name as text, since history outlives a class. `createdAt` is ms
 * since the epoch.
 */
export const operationClasses = sqliteTable("operation_classes", {
  name: text("name").primaryKey(),
  description: text("description").notNull().default(""),
  createdAt: integer("created_at").notNull(),
});
