import { type SQL, sql } from "drizzle-orm";

/** KeyValue is one value of a row's sort key. */
export type KeyValue = string | number;

/**
 * KeysetOrder is a list's order: its sort key's expressions (unique together, the id last),
 * ascending or descending.
 */
export interface KeysetOrder {
  columns: readonly SQL[];
  descending: boolean;
}

/** KeysetSelect runs a list's query with an extra condition, an order and a row limit. */
export type KeysetSelect<T> = (where: SQL | undefined, orderBy: SQL[], limit: number) => T[];

/** KeysetPage is one page of a list and the keys of its neighbours (null at either end). */
export interface KeysetPage<T> {
  rows: T[];
  /** nextKey is the key the next page starts after; null on the last page. */
  nextKey: readonly KeyValue[] | null;
  /** prevKey is the key the previous page ends before; null on the first page. */
  prevKey: readonly KeyValue[] | null;
}

function beyond(order: KeysetOrder, key: readonly KeyValue[], forward: boolean): SQL {
  const up = order.descending !== forward;
  const values = sql.join(
    key.map((v) => sql`${v}`),
    sql`, `,
  );
  return sql`(${sql.join([...order.columns], sql`, `)}) ${sql.raw(up ? ">" : "<")} (${values})`;
}

function orderOf(order: KeysetOrder, forward: boolean): SQL[] {
  const up = order.descending !== forward;
  return order.columns.map((c) => (up ? sql`${c} ASC` : sql`${c} DESC`));
}

function both(a: SQL | undefined, b: SQL): SQL {
  return a ? sql`(${a}) AND ${b}` : b;
}

/**
 * keysetPage reads one page of `limit` rows in `order`, after the key `after` or before the key
 * `before` (or from the start), with a row-value condition the sort key's index can serve. It
 * reads one row more to know whether a page follows, and one row past the other end to know
 * whether one precedes, so the cursors it returns never lead to an empty page.
 */
export function keysetPage<T>(
  select: KeysetSelect<T>,
  keyOf: (row: T) => readonly KeyValue[],
  order: KeysetOrder,
  filter: SQL | undefined,
  cursor: { after?: readonly KeyValue[]; before?: readonly KeyValue[] },
  limit: number,
): KeysetPage<T> {
  const forward = cursor.before === undefined;
  const from = cursor.before ?? cursor.after;
  const where = from ? both(filter, beyond(order, from, forward)) : filter;
  const read = select(where, orderOf(order, forward), limit + 1);
  const more = read.length > limit;
  const rows = forward ? read.slice(0, limit) : read.slice(0, limit).reverse();
  const first = rows[0];
  const last = rows.at(-1);
  const exists = (key: readonly KeyValue[], ahead: boolean) =>
    select(both(filter, beyond(order, key, ahead)), orderOf(order, ahead), 1).length > 0;
  if (!first || !last) return { rows, nextKey: null, prevKey: null };
  const firstKey = keyOf(first);
  const lastKey = keyOf(last);
  return {
    rows,
    nextKey: (forward ? more : exists(lastKey, true)) ? lastKey : null,
    prevKey: (forward ? from !== undefined && exists(firstKey, false) : more) ? firstKey : null,
  };
}
