import { getCustomer } from "@/db/queries/customers";
import { getQuotaGrant, grantsFor, insertQuotaGrant } from "@/db/queries/quota-grants";
import type { QuotaGrantCreate } from "@/lib/schemas/quota-grant.schema";
import type { QuotaGrantView } from "@/lib/schemas/quota-grant-answer.schema";
import { change } from "./change";
import type { AdminContext } from "./context";
import type { Outcome } from "./plans";

const notFound = { ok: false, status: 404, title: "Customer not found" } as const;

/** quotaGrantsOf lists a customer's quota grants, newest first (404 for no such customer). */
export function quotaGrantsOf(rt: AdminContext, customerId: number): Outcome<QuotaGrantView[]> {
  if (!getCustomer(rt.db, customerId)) return notFound;
  return { ok: true, value: grantsFor(rt.db, customerId) };
}

/**
 * grantQuota stores a grant of `extra` more of one of a customer's quotas for one period, audited
 * `quota.grant`, and rebuilds the policy so the snapshot carries it.
 */
export function grantQuota(
  rt: AdminContext,
  actor: string,
  customerId: number,
  input: QuotaGrantCreate,
): Outcome<QuotaGrantView> {
  return change(rt, actor, (tx, now) => {
    if (!getCustomer(tx, customerId)) return notFound;
    const id = insertQuotaGrant(tx, { ...input, customerId, createdAt: now, createdBy: actor });
    const grant = getQuotaGrant(tx, id) as QuotaGrantView;
    return {
      ok: true,
      value: grant,
      audit: {
        action: "quota.grant",
        entityType: "customer",
        entityId: customerId,
        before: null,
        after: grant,
      },
    };
  });
}
