import { type Limit, limit } from "@/lib/limiter";
import type { CustomerStatus, LimitRow, Operation, ServiceTokenScope } from "@/lib/vocabulary";

/** OverridePolicy replaces a plan's limits for one operation until `expiresAt` (ms), if set. */
export interface OverridePolicy {
  limits: Limit[];
  expiresAt: number | null;
}

/** CustomerPolicy is what a protected request needs to know about its caller, in memory. */
export interface CustomerPolicy {
  id: number;
  name: string;
  status: CustomerStatus;
  planId: number;
  planSlug: string;
  planName: string;
  /** bucketKeys keep read and write buckets apart even when their limits are equal. */
  bucketKeys: Record<Operation, string>;
  planLimits: Record<Operation, Limit[]>;
  overrides: Partial<Record<Operation, OverridePolicy>>;
}

/** PolicyRows are the stored rows a snapshot is built from. */
export interface PolicyRows {
  plans: {
    id: number;
    slug: string;
    name: string;
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
    expiresAt: number | null;
  }[];
  /** serviceTokens are the tokens that are not revoked. */
  serviceTokens: {
    id: number;
    name: string;
    tokenHash: string;
    scopes: ServiceTokenScope[];
  }[];
}

/** ServiceTokenPolicy is what the decision API needs to know about a service token, in memory. */
export interface ServiceTokenPolicy {
  id: number;
  name: string;
  scopes: ReadonlySet<ServiceTokenScope>;
}

/**
 * PolicySnapshot indexes customers by API-key hash and by id, and the live service tokens by
 * hash; it is immutable once built.
 */
export interface PolicySnapshot {
  byKeyHash: ReadonlyMap<string, CustomerPolicy>;
  byId: ReadonlyMap<number, CustomerPolicy>;
  serviceTokens: ReadonlyMap<string, ServiceTokenPolicy>;
  builtAt: number;
}

/** bucketKey names a customer's bucket for one operation. */
export function bucketKey(customerId: number, operation: Operation): string {
  return `${customerId}:${operation}`;
}

/** limitsFor returns the limits that apply to a customer's operation at `now` (ms). */
export function limitsFor(customer: CustomerPolicy, operation: Operation, now: number): Limit[] {
  const override = customer.overrides[operation];
  if (override && (override.expiresAt === null || now < override.expiresAt)) return override.limits;
  return customer.planLimits[operation];
}

/** buildSnapshot turns stored rows into the in-memory policy. */
export function buildSnapshot(rows: PolicyRows, builtAt: number): PolicySnapshot {
  const planById = new Map(
    rows.plans.map((plan) => {
      const limits: Record<Operation, Limit[]> = { read: [], write: [] };
      for (const row of plan.limits) limits[row.operation].push(limit(row.count, row.periodMs));
      return [plan.id, { slug: plan.slug, name: plan.name, limits }] as const;
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
      const entry = (overrides[o.operation] ??= { limits: [], expiresAt: o.expiresAt });
      entry.limits.push(limit(o.count, o.periodMs));
    }
    const customer: CustomerPolicy = {
      id: row.id,
      name: row.name,
      status: row.status,
      planId: row.planId,
      planSlug: plan.slug,
      planName: plan.name,
      bucketKeys: { read: bucketKey(row.id, "read"), write: bucketKey(row.id, "write") },
      planLimits: plan.limits,
      overrides,
    };
    byId.set(row.id, customer);
    byKeyHash.set(row.apiKeyHash, customer);
  }
  const serviceTokens = new Map<string, ServiceTokenPolicy>();
  for (const token of rows.serviceTokens) {
    serviceTokens.set(token.tokenHash, {
      id: token.id,
      name: token.name,
      scopes: new Set(token.scopes),
    });
  }
  return { byKeyHash, byId, serviceTokens, builtAt };
}
