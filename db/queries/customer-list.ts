import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { CustomerView } from "../../lib/schemas/customer-answer.schema";
import type { CustomerStatus } from "../../lib/vocabulary";
import type { Tx } from "../client";
import { customers, plans } from "../schema";
import { customerViewColumns } from "./customers";
import { type KeysetOrder, type KeysetPage, type KeyValue, keysetPage } from "./keyset";

/** CustomerFilter narrows the customers list: a search text, a plan, a status. */
export interface CustomerFilter {
  /** q matches any part of a name, the start of a key prefix ("rk_…"), or an id ("42", "#42"). */
  q?: string;
  planId?: number;
  status?: CustomerStatus;
}

/** KEY_PREFIX_CHARS is how many leading characters of a key are stored as its prefix. */
const KEY_PREFIX_CHARS = 10;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** customerFilterSql is the WHERE condition of a filter, or undefined for none. */
export function customerFilterSql(filter: CustomerFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.planId !== undefined) conditions.push(eq(customers.planId, filter.planId));
  if (filter.status !== undefined) conditions.push(eq(customers.status, filter.status));
  if (filter.q) {
    const q = filter.q;
    const matches: SQL[] = [
      sql`${customers.name} LIKE ${`%${escapeLike(q)}%`} ESCAPE '\\'`,
      sql`${customers.apiKeyPrefix} LIKE ${`${escapeLike(q.slice(0, KEY_PREFIX_CHARS))}%`} ESCAPE '\\'`,
    ];
    const id = /^#?(\d{1,15})$/.exec(q);
    if (id) matches.push(eq(customers.id, Number(id[1])));
    conditions.push(or(...matches) as SQL);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** countCustomers counts the customers a filter matches. */
export function countCustomers(tx: Tx, filter: CustomerFilter): number {
  return (
    tx.select({ n: sql<number>`count(*)` }).from(customers).where(customerFilterSql(filter)).get()
      ?.n ?? 0
  );
}

/** CUSTOMER_ORDERS are the stored orders of the list: by name (case-insensitive), newest first. */
export const CUSTOMER_ORDERS = {
  name: {
    columns: [sql`${customers.name} COLLATE NOCASE`, sql`${customers.id}`],
    descending: false,
  },
  newest: { columns: [sql`${customers.id}`], descending: true },
} satisfies Record<string, KeysetOrder>;

/** customerKeyOf is a row's key in a stored order: [name, id] or [id]. */
export function customerKeyOf(order: keyof typeof CUSTOMER_ORDERS, row: CustomerView): KeyValue[] {
  return order === "name" ? [row.name, row.id] : [row.id];
}

/**
 * pageCustomers reads one page of customers in a stored order, after or before a cursor key,
 * with their plans' names; the order's index serves both the filter-free page and the cursor.
 */
export function pageCustomers(
  tx: Tx,
  filter: CustomerFilter,
  order: keyof typeof CUSTOMER_ORDERS,
  cursor: { after?: readonly KeyValue[]; before?: readonly KeyValue[] },
  limit: number,
): KeysetPage<CustomerView> {
  return keysetPage(
    (where, orderBy, n) =>
      tx
        .select(customerViewColumns)
        .from(customers)
        .innerJoin(plans, eq(plans.id, customers.planId))
        .where(where)
        .orderBy(...orderBy)
        .limit(n)
        .all(),
    (row) => customerKeyOf(order, row),
    CUSTOMER_ORDERS[order],
    customerFilterSql(filter),
    cursor,
    limit,
  );
}

/** listCustomerIds returns the ids a filter matches (to order them by something not stored). */
export function listCustomerIds(tx: Tx, filter: CustomerFilter): number[] {
  return tx
    .select({ id: customers.id })
    .from(customers)
    .where(customerFilterSql(filter))
    .all()
    .map((r) => r.id);
}

/** getCustomersByIds returns those customers, in the order of `ids` (missing ones left out). */
export function getCustomersByIds(tx: Tx, ids: readonly number[]): CustomerView[] {
  if (ids.length === 0) return [];
  const rows = tx
    .select(customerViewColumns)
    .from(customers)
    .innerJoin(plans, eq(plans.id, customers.planId))
    .where(inArray(customers.id, [...ids]))
    .all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
