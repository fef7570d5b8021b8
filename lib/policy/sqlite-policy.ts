import type { Db } from "@/db/client";
import { lastAuditId } from "@/db/queries/audit";
import { listCustomerRows, listOverrides } from "@/db/queries/customers";
import { listClassNames } from "@/db/queries/operation-classes";
import { listPlans } from "@/db/queries/plans";
import { listActiveServiceTokens, listRevokedServiceTokens } from "@/db/queries/service-tokens";
import type { PolicyState } from "./policy-store";

/**
 * readPolicyState reads the rows the policy snapshot is built from, and the database's
 * revision, in one transaction: the control plane's source of the policy.
 */
export function readPolicyState(db: Db): PolicyState {
  return db.transaction((tx) => ({
    rows: {
      classes: listClassNames(tx),
      plans: listPlans(tx),
      customers: listCustomerRows(tx),
      overrides: listOverrides(tx),
      serviceTokens: listActiveServiceTokens(tx),
      revokedServiceTokens: listRevokedServiceTokens(tx),
    },
    revision: lastAuditId(tx),
  }));
}
