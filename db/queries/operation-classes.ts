import { asc, countDistinct, eq } from "drizzle-orm";
import type { Operation } from "../../lib/vocabulary";
import { isDefaultClass } from "../../lib/vocabulary";
import type { Tx } from "../client";
import { customers, limitOverrides, operationClasses, planLimits, plans } from "../schema";

/** ClassRow is an operation class as stored: its name, description and creation time (ms). */
export interface ClassRow {
  name: Operation;
  description: string;
  createdAt: number;
}

/** ClassUse is a class with how many plans and how many customers' overrides name it. */
export interface ClassUse extends ClassRow {
  plans: number;
  overrides: number;
}

/** byDefaultsFirst orders classes: read and write first, then the others by name. */
function byDefaultsFirst(a: { name: string }, b: { name: string }): number {
  const rank = (name: string) => (name === "read" ? 0 : name === "write" ? 1 : 2);
  return rank(a.name) - rank(b.name) || a.name.localeCompare(b.name);
}

/** listClassNames returns every class's name, read and write first (for the policy). */
export function listClassNames(tx: Tx): Operation[] {
  const rows = tx.select({ name: operationClasses.name }).from(operationClasses).all();
  return rows.sort(byDefaultsFirst).map((row) => row.name);
}

/** getClass returns one class, or undefined. */
export function getClass(tx: Tx, name: string): ClassRow | undefined {
  return tx.select().from(operationClasses).where(eq(operationClasses.name, name)).get();
}

/**
 * listClassUses returns every class (read and write first) with the number of plans that have
 * a limit of it and of customers with an override of it.
 */
export function listClassUses(tx: Tx): ClassUse[] {
  const planCounts = new Map(
    tx
      .select({ name: planLimits.operation, n: countDistinct(planLimits.planId) })
      .from(planLimits)
      .groupBy(planLimits.operation)
      .all()
      .map((row) => [row.name, row.n]),
  );
  const overrideCounts = new Map(
    tx
      .select({ name: limitOverrides.operation, n: countDistinct(limitOverrides.customerId) })
      .from(limitOverrides)
      .groupBy(limitOverrides.operation)
      .all()
      .map((row) => [row.name, row.n]),
  );
  return tx
    .select()
    .from(operationClasses)
    .all()
    .sort(byDefaultsFirst)
    .map((row) => ({
      ...row,
      plans: planCounts.get(row.name) ?? 0,
      overrides: overrideCounts.get(row.name) ?? 0,
    }));
}

/** ClassUsers name the plans and the customers (by their overrides) that use a class. */
export interface ClassUsers {
  plans: { id: number; name: string }[];
  customers: { id: number; name: string }[];
}

/** classUsers lists the plans with a limit of the class and the customers with an override of it, by name. */
export function classUsers(tx: Tx, name: string): ClassUsers {
  return {
    plans: tx
      .select({ id: plans.id, name: plans.name })
      .from(planLimits)
      .innerJoin(plans, eq(plans.id, planLimits.planId))
      .where(eq(planLimits.operation, name))
      .groupBy(plans.id)
      .orderBy(asc(plans.name))
      .all(),
    customers: tx
      .select({ id: customers.id, name: customers.name })
      .from(limitOverrides)
      .innerJoin(customers, eq(customers.id, limitOverrides.customerId))
      .where(eq(limitOverrides.operation, name))
      .groupBy(customers.id)
      .orderBy(asc(customers.name))
      .all(),
  };
}

/** insertClass creates a class at `now` (ms) and returns it. */
export function insertClass(
  tx: Tx,
  values: { name: string; description: string },
  now: number,
): ClassRow {
  return tx
    .insert(operationClasses)
    .values({ ...values, createdAt: now })
    .returning()
    .get();
}

/** updateClassDescription sets a class's description; it returns the class, or undefined. */
export function updateClassDescription(
  tx: Tx,
  name: string,
  description: string,
): ClassRow | undefined {
  return tx
    .update(operationClasses)
    .set({ description })
    .where(eq(operationClasses.name, name))
    .returning()
    .get();
}

/**
 * deleteClass deletes a class that is neither a default one nor in use (the foreign keys would
 * refuse it); it returns whether a row went.
 */
export function deleteClass(tx: Tx, name: string): boolean {
  if (isDefaultClass(name)) return false;
  return tx.delete(operationClasses).where(eq(operationClasses.name, name)).run().changes > 0;
}

/** unknownClasses returns those of `names` that are not classes, in their order, each once. */
export function unknownClasses(tx: Tx, names: Iterable<string>): string[] {
  const known = new Set(listClassNames(tx));
  return [...new Set(names)].filter((name) => !known.has(name));
}
