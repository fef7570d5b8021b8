import { type AnyLimit, type Quota, quota } from "@/lib/limiter";
import type { RequestInput } from "@/lib/policy/policy-limiter";
import { BucketKeys, type CustomerPolicy } from "@/lib/policy/snapshot";

/** MONTHLY is the quota the durability tests decide on: 5 tokens per UTC month. */
export const MONTHLY: Quota = quota(5, "month");

/**
 * withQuotas returns `customer` with its plan limiting `read` by `limits` (quotas among them),
 * so the policy limiter's own limit func decides them, until plans carry quota rows themselves.
 */
export function withQuotas(customer: CustomerPolicy, limits: readonly AnyLimit[]): CustomerPolicy {
  const planLimits = new Map(customer.planLimits) as Map<string, unknown>;
  planLimits.set("read", [...limits]);
  return { ...customer, planLimits } as unknown as CustomerPolicy;
}

/** quotaInput is a read by `customer` at `now`, limited by MONTHLY alone. */
export function quotaInput(customer: CustomerPolicy, now: number): RequestInput {
  return { customer: withQuotas(customer, [MONTHLY]), operation: "read", now };
}

/** testCustomer is a customer policy with no limits of its own, for tests off the database. */
export function testCustomer(id: number): CustomerPolicy {
  return {
    id,
    name: `customer ${id}`,
    status: "active",
    planId: 1,
    planSlug: "test",
    planName: "Test",
    bucketKeys: new BucketKeys(id),
    planLimits: new Map(),
    planDryRun: new Map(),
    overrides: new Map(),
    apiKeyHash: "",
    billingAnchorDay: 1,
    grants: new Map(),
  };
}
