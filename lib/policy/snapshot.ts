import { type Limit, limit } from "@/lib/limiter";
import type { CustomerStatus, LimitRow, Operation } from "@/lib/vocabulary";

/**
 * OverridePolicy replaces a plan's limits for one operation, enforced and dry-run alike, until
 * `expiresAt` (ms), if set.
 */
export interface OverridePolicy {
  limits: Limit[];
  dryRun: Limit[];
  expiresAt: number | null;
}

/** CustomerPolicy is what a protected request needs to know about its caller, in memory. */
export interface CustomerPolicy {
  id: number;
  name: string;
  status: CustomerStatus;
  planId: number;
  planSlug: string;
  /** bucketKeys keep read and write buckets apart even when their limits are equal. */
  bucketKeys: Record<Operation, string>;
  planLimits: Record<Operation, Limit[]>;
  /** planDryRun are the plan's dry-run limits: evaluated and counted, never refusing. */
  planDryRun: Record<Operation, Limit[]>;
  overrides: Partial<Record<Operation, OverridePolicy>>;
}

/** PolicyRows are the stored rows a snapshot is built from. */
export interface PolicyRows {
  plans: {
    id: number;
    slug: string;
    limits: LimitRow[];
  }[];
  customers: {
    id: number;
    name: string;
    status: CustomerStatus;
    planId: number;
    apiKeyHash: string;
  }[];
  overrides: {
    customerId: number;
    operation: Operation;
    count: number;
    periodMs: number;
    dryRun: boolean;
    expiresAt: number | null;
  }[];
}

/** PolicySnapshot indexes customers by API-key hash and by id; it is immutable once built. */
export interface PolicySnapshot {
  byKeyHash: ReadonlyMap<string, CustomerPolicy>;
  byId: ReadonlyMap<number, CustomerPolicy>;
  builtAt: number;
}

/** bucketKey names a customer's bucket for one operation. */
export function bucketKey(customerId: number, operation: Operation): string {
  return `${customerId}:${operation}`;
}

/** activeOverride returns the customer's override for the operation if it applies at `now` (ms). */
export function activeOverride(
  customer: CustomerPolicy,
  operation: Operation,
  now: number,
): OverridePolicy | undefined {
  const override = customer.overrides[operation];
  return override && (override.expiresAt === null || now < override.expiresAt)
    ? override
    : undefined;
}

/** limitsFor returns the enforced limits of a customer's operation at `now` (ms). */
export function limitsFor(customer: CustomerPolicy, operation: Operation, now: number): Limit[] {
  return activeOverride(customer, operation, now)?.limits ?? customer.planLimits[operation];
}

/**
 * dryRunLimitsFor returns the dry-run limits of a customer's operation at `now` (ms): the active
 * override's (an override replaces the plan's dry-run limits too), else the plan's.
 */
export function dryRunLimitsFor(
  customer: CustomerPolicy,
  operation: Operation,
  now: number,
): Limit[] {
  return activeOverride(customer, operation, now)?.dryRun ?? customer.planDryRun[operation];
}

/** buildSnapshot turns stored rows into the in-memory policy. */
export function buildSnapshot(rows: PolicyRows, builtAt: number): PolicySnapshot {
  const planById = new Map(
    rows.plans.map((plan) => {
      const limits: Record<Operation, Limit[]> = { read: [], write: [] };
      const dryRun: Record<Operation, Limit[]> = { read: [], write: [] };
      for (const row of plan.limits) {
        (row.dryRun ? dryRun : limits)[row.operation].push(limit(row.count, row.periodMs));
      }
      return [plan.id, { slug: plan.slug, limits, dryRun }] as const;
    }),
  );
  const byId = new Map<number, CustomerPolicy>();
  const byKeyHash = new Map<string, CustomerPolicy>();
  for (const row of rows.customers) {
    const plan = planById.get(row.planId);
    if (!plan) continue;
    const overrides: Partial<Record<Operation, OverridePolicy>> = {};
    for (const o of rows.overrides) {
      if (o.customerId !== row.id) continue;
      const entry = (overrides[o.operation] ??= { limits: [], dryRun: [], expiresAt: o.expiresAt });
      (o.dryRun ? entry.dryRun : entry.limits).push(limit(o.count, o.periodMs));
    }
    const customer: CustomerPolicy = {
      id: row.id,
      name: row.name,
      status: row.status,
      planId: row.planId,
      planSlug: plan.slug,
      bucketKeys: { read: bucketKey(row.id, "read"), write: bucketKey(row.id, "write") },
      planLimits: plan.limits,
      planDryRun: plan.dryRun,
      overrides,
    };
    byId.set(row.id, customer);
    byKeyHash.set(row.apiKeyHash, customer);
  }
  return { byKeyHash, byId, builtAt };
}
