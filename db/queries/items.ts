import { and, asc, eq, gt } from "drizzle-orm";
import type { Tx } from "../client";
import { items } from "../schema";

/** ItemRow is a stored item. */
export type ItemRow = typeof items.$inferSelect;

/** listItems returns a customer's items by id, `limit` at most, after `afterId` if given. */
export function listItems(
  tx: Tx,
  customerId: number,
  options: { limit: number; afterId?: number },
): ItemRow[] {
  const where = options.afterId
    ? and(eq(items.customerId, customerId), gt(items.id, options.afterId))
    : eq(items.customerId, customerId);
  return tx.select().from(items).where(where).orderBy(asc(items.id)).limit(options.limit).all();
}

/** getItem returns a customer's item, or undefined (another customer's item is not found). */
export function getItem(tx: Tx, customerId: number, id: number): ItemRow | undefined {
  return tx
    .select()
    .from(items)
    .where(and(eq(items.id, id), eq(items.customerId, customerId)))
    .get();
}

/** insertItems stores new items for a customer and returns them. */
export function insertItems(
  tx: Tx,
  customerId: number,
  values: { name: string; quantity: number }[],
  now: number,
): ItemRow[] {
  return tx
    .insert(items)
    .values(values.map((v) => ({ ...v, customerId, createdAt: now, updatedAt: now })))
    .returning()
    .all();
}

/** updateItem changes a customer's item and returns it, or undefined when not found. */
export function updateItem(
  tx: Tx,
  customerId: number,
  id: number,
  values: { name?: string; quantity?: number },
  now: number,
): ItemRow | undefined {
  return tx
    .update(items)
    .set({ ...values, updatedAt: now })
    .where(and(eq(items.id, id), eq(items.customerId, customerId)))
    .returning()
    .get();
}

/** deleteItem deletes a customer's item and reports whether it existed. */
export function deleteItem(tx: Tx, customerId: number, id: number): boolean {
  const result = tx
    .delete(items)
    .where(and(eq(items.id, id), eq(items.customerId, customerId)))
    .run();
  return result.changes > 0;
}
