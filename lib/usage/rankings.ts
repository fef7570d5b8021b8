import type { Tx } from "@/db/client";
import type { UsageFilter } from "@/db/queries/usage";
import type { CustomerUsage, PlanUsage } from "@/lib/schemas/usage-answer.schema";
import { addCounts, decisionsOf, type UsageCounts, zeroCounts } from "@/lib/vocabulary";
import { readUsage } from "./usage-read";

function share(c: UsageCounts): number | null {
  const all = decisionsOf(c);
  return all > 0 ? c.denied / all : null;
}

/** customerUsage sums each customer's decisions and tokens over the filter's range. */
export function customerUsage(tx: Tx, filter: UsageFilter, minutesFromMs: number): CustomerUsage[] {
  const byCustomer = new Map<number, CustomerUsage>();
  for (const row of readUsage(tx, filter, ["customer"], { minutesFromMs })) {
    const into = byCustomer.get(row.customerId) ?? {
      customerId: row.customerId,
      ...zeroCounts(),
      deniedShare: null,
    };
    addCounts(into, row);
    byCustomer.set(row.customerId, into);
  }
  return [...byCustomer.values()].map((c) => ({ ...c, deniedShare: share(c) }));
}

/**
 * topCustomers ranks customers two ways: by denials (then by share refused), and by usage
 * (tokens taken, then decisions allowed); `limit` of each, customers with nothing left out.
 */
export function topCustomers(rows: readonly CustomerUsage[], limit: number) {
  const byDenials = rows
    .filter((r) => r.denied > 0)
    .sort(
      (a, b) =>
        b.denied - a.denied ||
        (b.deniedShare ?? 0) - (a.deniedShare ?? 0) ||
        a.customerId - b.customerId,
    )
    .slice(0, limit);
  const byUsage = rows
    .filter((r) => r.tokensTaken + r.allowed > 0)
    .sort(
      (a, b) =>
        b.tokensTaken - a.tokensTaken || b.allowed - a.allowed || a.customerId - b.customerId,
    )
    .slice(0, limit);
  return { byDenials, byUsage };
}

/** planUsage sums the traffic made on each plan over the filter's range. */
export function planUsage(tx: Tx, filter: UsageFilter, minutesFromMs: number): PlanUsage[] {
  const byPlan = new Map<number, PlanUsage & { active: Set<number>; refused: Set<number> }>();
  for (const row of readUsage(tx, filter, ["plan", "customer"], { minutesFromMs })) {
    let into = byPlan.get(row.planId);
    if (!into) {
      into = {
        planId: row.planId,
        ...zeroCounts(),
        activeCustomers: 0,
        refusedCustomers: 0,
        active: new Set(),
        refused: new Set(),
      };
      byPlan.set(row.planId, into);
    }
    addCounts(into, row);
    if (decisionsOf(row) > 0) into.active.add(row.customerId);
    if (row.denied > 0) into.refused.add(row.customerId);
  }
  return [...byPlan.values()].map(({ active, refused, ...plan }) => ({
    ...plan,
    activeCustomers: active.size,
    refusedCustomers: refused.size,
  }));
}
