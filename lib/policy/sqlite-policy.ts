import type { Db } from "@/db/client";
import { lastAuditId } from "@/db/queries/audit";
import { type CustomerRow, listCustomerRows, listOverrides } from "@/db/queries/customers";
import { listClassNames } from "@/db/queries/operation-classes";
import { limitOfColumns, listPlans } from "@/db/queries/plans";
import { type GrantTotalRow, grantTotalsSince } from "@/db/queries/quota-grants";
import { listRouteRules } from "@/db/queries/route-rules";
import { listActiveServiceTokens, listRevokedServiceTokens } from "@/db/queries/service-tokens";
import type { PolicyState } from "./policy-store";
import { GRANT_LOOKBACK_MS, grantKey } from "./quota-grants";
import type { PolicyRows } from "./snapshot";

/**
 * readPolicyState reads the rows the policy snapshot is built from, and the database's
 * revision, in one transaction: the control plane's source of the policy. `now` (ms) is when:
 * the grants read are those of periods that started at most GRANT_LOOKBACK_MS before it, or
 * start later.
 */
export function readPolicyState(db: Db, now: number): PolicyState {
  return db.transaction((tx) => ({
    rows: {
      classes: listClassNames(tx),
      plans: listPlans(tx),
      customers: withGrants(listCustomerRows(tx), grantTotalsSince(tx, now - GRANT_LOOKBACK_MS)),
      overrides: listOverrides(tx).map((o) => ({
        customerId: o.customerId,
        operation: o.operation,
        expiresAt: o.expiresAt,
        ...limitOfColumns(o),
      })),
      serviceTokens: listActiveServiceTokens(tx),
      revokedServiceTokens: listRevokedServiceTokens(tx),
      routeRules: listRouteRules(tx),
    },
    revision: lastAuditId(tx),
  }));
}

/** withGrants gives each customer with grants its map of them by grantKey (none: no map). */
function withGrants(
  customers: CustomerRow[],
  totals: readonly GrantTotalRow[],
): PolicyRows["customers"] {
  if (totals.length === 0) return customers;
  const grantsOf = new Map<number, Record<string, number>>();
  for (const t of totals) {
    let grants = grantsOf.get(t.customerId);
    if (!grants) {
      grants = {};
      grantsOf.set(t.customerId, grants);
    }
    grants[grantKey(t.operation, t.period, t.timeZone, t.periodStartMs)] = t.extra;
  }
  return customers.map((c) => {
    const grants = grantsOf.get(c.id);
    return grants ? { ...c, grants } : c;
  });
}
