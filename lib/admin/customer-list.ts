import type { Db } from "@/db/client";
import {
  countCustomers,
  getCustomersByIds,
  listCustomerIds,
  pageCustomers,
} from "@/db/queries/customer-list";
import type { Clock } from "@/lib/limiter";
import type { CustomersAnswer } from "@/lib/schemas/customer-answer.schema";
import type { CustomerListQuery } from "@/lib/schemas/customer-list.schema";
import { encodeCursor } from "@/lib/schemas/list.schema";
import type { DecisionCounts } from "@/lib/schemas/traffic-answer.schema";
import type { LiveTraffic } from "@/lib/usage/live-traffic";

/** TRAFFIC_SECONDS is the span of a customer's "recent traffic": the last 5 minutes. */
export const TRAFFIC_SECONDS = 300;

/**
 * CustomerListContext is what listing needs: the database, the live traffic view (the whole
 * fleet's with Redis) and the clock.
 */
export interface CustomerListContext {
  db: Db;
  live: LiveTraffic;
  clock: Clock;
}

const NO_TRAFFIC: DecisionCounts = { allowed: 0, denied: 0 };

function cursorOf(key: readonly (string | number)[] | null): string | null {
  return key ? encodeCursor(key) : null;
}

/**
 * listCustomerPage answers one page of the customers list: filtered and searched in SQLite,
 * ordered newest first or by name through an index, or by traffic (held in memory, so the
 * matching ids are ordered here, most requests first, then by id), with each row's traffic.
 */
export async function listCustomerPage(
  ctx: CustomerListContext,
  query: CustomerListQuery,
): Promise<CustomersAnswer> {
  const filter = { q: query.q, planId: query.plan, status: query.status };
  const now = ctx.clock.now();
  const total = countCustomers(ctx.db, filter);
  if (query.sort !== "traffic") {
    const page = pageCustomers(ctx.db, filter, query.sort, query, query.limit);
    const { totals: traffic } = await ctx.live.totalsOf(
      now,
      TRAFFIC_SECONDS,
      page.rows.map((c) => c.id),
    );
    return {
      customers: page.rows.map((c) => ({ ...c, traffic: traffic.get(c.id) ?? NO_TRAFFIC })),
      next: cursorOf(page.nextKey),
      prev: cursorOf(page.prevKey),
      total,
    };
  }
  const { totals } = await ctx.live.totals(now, TRAFFIC_SECONDS);
  const volume = (id: number) => {
    const t = totals.get(id);
    return t ? t.allowed + t.denied : 0;
  };
  const ranked = listCustomerIds(ctx.db, filter)
    .map((id) => [volume(id), id] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  // The first index at or past a key [volume, id] (strictly past it with `strict`).
  const indexOf = (key: readonly (string | number)[], strict: boolean) => {
    const [v, id] = key as [number, number];
    const i = ranked.findIndex(
      ([rv, rid]) => rv < v || (rv === v && (strict ? rid > id : rid >= id)),
    );
    return i === -1 ? ranked.length : i;
  };
  let start: number;
  let end: number;
  if (query.before) {
    end = indexOf(query.before, false);
    start = Math.max(0, end - query.limit);
  } else {
    start = query.after ? indexOf(query.after, true) : 0;
    end = Math.min(ranked.length, start + query.limit);
  }
  const slice = ranked.slice(start, end);
  const customers = getCustomersByIds(
    ctx.db,
    slice.map(([, id]) => id),
  ).map((c) => ({ ...c, traffic: totals.get(c.id) ?? NO_TRAFFIC }));
  const first = slice[0];
  const last = slice.at(-1);
  return {
    customers,
    next: last && end < ranked.length ? encodeCursor(last) : null,
    prev: first && start > 0 ? encodeCursor(first) : null,
    total,
  };
}
