import { asc } from "drizzle-orm";
import type { RouteRule } from "../../lib/schemas/route-rule.schema";
import type { Tx } from "../client";
import { routeRules } from "../schema";

/** StoredRouteRule is a route rule with its times (ms since the epoch). */
export interface StoredRouteRule extends RouteRule {
  createdAt: number;
  updatedAt: number;
}

const ruleColumns = {
  method: routeRules.method,
  pattern: routeRules.pattern,
  unmetered: routeRules.unmetered,
  operation: routeRules.operation,
  cost: routeRules.cost,
};

/** listRouteRules returns the gateway's route rules in the order they are tried (for the policy). */
export function listRouteRules(tx: Tx): RouteRule[] {
  return tx.select(ruleColumns).from(routeRules).orderBy(asc(routeRules.position)).all();
}

/** listStoredRouteRules returns the route rules in order, with their times. */
export function listStoredRouteRules(tx: Tx): StoredRouteRule[] {
  return tx
    .select({ ...ruleColumns, createdAt: routeRules.createdAt, updatedAt: routeRules.updatedAt })
    .from(routeRules)
    .orderBy(asc(routeRules.position))
    .all();
}

/** sameRule tells whether two rules say the same thing (their times aside). */
function sameRule(a: RouteRule, b: RouteRule): boolean {
  return (
    a.method === b.method &&
    a.pattern === b.pattern &&
    a.unmetered === b.unmetered &&
    a.operation === b.operation &&
    a.cost === b.cost
  );
}

/**
 * replaceRouteRules stores `rules` as the whole list, in order. A rule whose method and pattern
 * were already in the list keeps its creation time, and its update time too if it is unchanged;
 * the others are created at `now` (ms).
 */
export function replaceRouteRules(tx: Tx, rules: readonly RouteRule[], now: number): void {
  const before = new Map(listStoredRouteRules(tx).map((r) => [`${r.method} ${r.pattern}`, r]));
  tx.delete(routeRules).run();
  if (rules.length === 0) return;
  tx.insert(routeRules)
    .values(
      rules.map((rule, position) => {
        const was = before.get(`${rule.method} ${rule.pattern}`);
        return {
          position,
          method: rule.method,
          pattern: rule.pattern,
          unmetered: rule.unmetered,
          operation: rule.operation,
          cost: rule.cost,
          createdAt: was?.createdAt ?? now,
          updatedAt: was && sameRule(was, rule) ? was.updatedAt : now,
        };
      }),
    )
    .run();
}
