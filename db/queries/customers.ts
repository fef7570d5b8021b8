import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { CustomerView } from "../../lib/schemas/customer-answer.schema";
import { type AnyPolicyLimit, isQuotaShape, type Operation } from "../../lib/vocabulary";
import type { Tx } from "../client";
import { customers, limitOverrides, plans } from "../schema";
import { columnsOfLimit, dryRunKey, dryRunSinceOf } from "./plans";

/** CustomerRow is a stored customer (the key hash stays in the database layer's callers). */
export type CustomerRow = typeof customers.$inferSelect;

/** OverrideRow is a stored override limit. */
export type OverrideRow = typeof limitOverrides.$inferSelect;

/** customerViewColumns select a CustomerView (join plans on the customer's plan). */
export const customerViewColumns = {
  id: customers.id,
  name: customers.name,
  planId: customers.planId,
  planSlug: plans.slug,
  planName: plans.name,
  status: customers.status,
  apiKeyPrefix: customers.apiKeyPrefix,
  billingAnchorDay: customers.billingAnchorDay,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};

/**
 * listCustomers returns every customer with its plan, by name: for reports that name the
 * customers of many rows at once (the usage CSV, near-limit, dry-run reports); lists page.
 */
export function listCustomers(tx: Tx): CustomerView[] {
  return tx
    .select(customerViewColumns)
    .from(customers)
    .innerJoin(plans, eq(plans.id, customers.planId))
    .orderBy(asc(customers.name), asc(customers.id))
    .all();
}

/** getCustomer returns one customer, or undefined. */
export function getCustomer(tx: Tx, id: number): CustomerView | undefined {
  return tx
    .select(customerViewColumns)
    .from(customers)
    .innerJoin(plans, eq(plans.id, customers.planId))
    .where(eq(customers.id, id))
    .get();
}

/** listCustomerRows returns every stored customer row, key hashes included (for the policy). */
export function listCustomerRows(tx: Tx): CustomerRow[] {
  return tx.select().from(customers).all();
}

/**
 * defaultAnchorDay is the billing anchor day of a customer created at `createdAt` (ms since the
 * epoch) who was given none: the day of the month of its creation, in UTC (1..31).
 */
export function defaultAnchorDay(createdAt: number): number {
  return new Date(createdAt).getUTCDate();
}

/**
 * insertCustomer stores a new customer and returns its id; without a billing anchor day, the
 * customer is billed from the UTC day of the month of `now` (ms).
 */
export function insertCustomer(
  tx: Tx,
  values: {
    name: string;
    planId: number;
    apiKeyHash: string;
    apiKeyPrefix: string;
    billingAnchorDay?: number;
  },
  now: number,
): number {
  return tx
    .insert(customers)
    .values({
      ...values,
      billingAnchorDay: values.billingAnchorDay ?? defaultAnchorDay(now),
      status: "active",
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: customers.id })
    .get().id;
}

/** updateCustomerRow changes a customer's fields. */
export function updateCustomerRow(
  tx: Tx,
  id: number,
  values: Partial<
    Pick<
      CustomerRow,
      "name" | "planId" | "status" | "apiKeyHash" | "apiKeyPrefix" | "billingAnchorDay"
    >
  >,
  now: number,
): void {
  tx.update(customers)
    .set({ ...values, updatedAt: now })
    .where(eq(customers.id, id))
    .run();
}

/** deleteCustomerRow deletes a customer; its items and overrides cascade. */
export function deleteCustomerRow(tx: Tx, id: number): void {
  tx.delete(customers).where(eq(customers.id, id)).run();
}

/** listOverrides returns every override limit row. */
export function listOverrides(tx: Tx): OverrideRow[] {
  return tx.select().from(limitOverrides).all();
}

/** listCustomerOverrides returns one customer's override rows. */
export function listCustomerOverrides(tx: Tx, customerId: number): OverrideRow[] {
  return tx.select().from(limitOverrides).where(eq(limitOverrides.customerId, customerId)).all();
}

/** replaceOverride replaces a customer's override for one operation (no limits clears it). */
export function replaceOverride(
  tx: Tx,
  customerId: number,
  operation: Operation,
  limits: AnyPolicyLimit[],
  expiresAt: number | null,
  now: number,
): void {
  const since = dryRunSinceOf(
    tx
      .select({
        operation: limitOverrides.operation,
        count: limitOverrides.count,
        periodMs: limitOverrides.periodMs,
        dryRunSince: limitOverrides.dryRunSince,
      })
      .from(limitOverrides)
      .where(
        and(
          eqCustomerOperation(customerId, operation),
          eq(limitOverrides.dryRun, true),
          isNotNull(limitOverrides.periodMs),
        ),
      )
      .all()
      .map((row) => ({ ...row, periodMs: row.periodMs ?? 0 })),
  );
  tx.delete(limitOverrides).where(eqCustomerOperation(customerId, operation)).run();
  if (limits.length > 0) {
    tx.insert(limitOverrides)
      .values(
        limits.map((l) => ({
          customerId,
          operation,
          ...columnsOfLimit(l),
          dryRun: l.dryRun ?? false,
          // A dry-run limit the override already had keeps its start; a new one starts now.
          // Only bucket limits may be dry-run (quota rows refuse it: QUOTA_DRY_RUN_RULE).
          dryRunSince:
            l.dryRun && !isQuotaShape(l)
              ? (since.get(dryRunKey({ operation, count: l.count, periodMs: l.periodMs })) ?? now)
              : null,
          expiresAt,
          createdAt: now,
        })),
      )
      .run();
  }
}

/**
 * promoteOverrideDryRun makes the dry-run limits of a customer's override for one operation
 * enforced and returns how many it changed.
 */
export function promoteOverrideDryRun(tx: Tx, customerId: number, operation: Operation): number {
  return tx
    .update(limitOverrides)
    .set({ dryRun: false, dryRunSince: null })
    .where(and(eqCustomerOperation(customerId, operation), eq(limitOverrides.dryRun, true)))
    .run().changes;
}

function eqCustomerOperation(customerId: number, operation: Operation) {
  return and(eq(limitOverrides.customerId, customerId), eq(limitOverrides.operation, operation));
}
