import { type AnyLimit, Quota } from "@/lib/limiter";
import { limitsFor, type PolicySnapshot } from "@/lib/policy/snapshot";
import type { QuotaInForce } from "@/lib/usage/quota-restorer";

/**
 * quotasInForce lists the enforced quotas of every customer's every class in `snapshot` at `now`
 * (ms): whatever quotas the policy's limits hold (the plan's, or an active override's), each
 * with the customer's bucket key of the class.
 */
export function* quotasInForce(snapshot: PolicySnapshot, now: number): Iterable<QuotaInForce> {
  for (const customer of snapshot.byId.values()) {
    for (const operation of snapshot.classes) {
      const limits: readonly AnyLimit[] = limitsFor(customer, operation, now);
      for (const item of limits) {
        if (item instanceof Quota) {
          yield {
            customerId: customer.id,
            operation,
            key: customer.bucketKeys.get(operation),
            quota: item,
          };
        }
      }
    }
  }
}
