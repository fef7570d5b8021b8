import { type Limit, limit } from "@/lib/limiter";
import type { RouteRule } from "@/lib/schemas/route-rule.schema";
import {
  type CustomerStatus,
  DEFAULT_CLASSES,
  type LimitRow,
  type Operation,
  type ServiceTokenScope,
} from "@/lib/vocabulary";
import { NO_ROUTE_RULES, RouteMatcher } from "./route-rules";

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
  planName: string;
  /** bucketKeys name the customer's bucket of each class: classes apart even when their limits are equal. */
  bucketKeys: BucketKeys;
  /** planLimits are the plan's enforced limits by class; a class it does not name is unlimited. */
  planLimits: ReadonlyMap<Operation, Limit[]>;
  /** planDryRun are the plan's dry-run limits by class: evaluated and counted, never refusing. */
  planDryRun: ReadonlyMap<Operation, Limit[]>;
  /** overrides are the customer's overrides by class (a class at most once). */
  overrides: ReadonlyMap<Operation, OverridePolicy>;
  /** apiKeyHash is the hash of the customer's current API key (never the key). */
  apiKeyHash: string;
  /**
   * billingAnchorDay is the day of the month (1..31) the customer's monthly quotas start on; in
   * a month shorter than it, its last day.
   */
  billingAnchorDay: number;
  /**
   * grants are the extra quota granted to the customer, by `grantKey` (a quota's operation,
   * period, time zone and period start), summed: only those of periods that may still be current
   * when the snapshot was read (GRANT_LOOKBACK_MS). A quota with none has its count as it is.
   */
  grants: ReadonlyMap<string, number>;
}

/** PolicyRows are the stored rows a snapshot is built from. */
export interface PolicyRows {
  /**
   * classes are the names of the operation classes (absent from snapshots of control planes
   * that knew only read and write: DEFAULT_CLASSES then).
   */
  classes?: Operation[];
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
    /** billingAnchorDay is the day of the month (1..31) the customer's monthly quotas start on. */
    billingAnchorDay: number;
    /**
     * grants are the customer's grants summed by `grantKey` (extra quota per quota and period),
     * of the periods that may still be current; absent when it has none.
     */
    grants?: Readonly<Record<string, number>>;
  }[];
  overrides: {
    customerId: number;
    operation: Operation;
    count: number;
    periodMs: number;
    dryRun: boolean;
    expiresAt: number | null;
  }[];
  /** serviceTokens are the tokens that are not revoked. */
  serviceTokens: {
    id: number;
    name: string;
    tokenHash: string;
    scopes: ServiceTokenScope[];
  }[];
  /**
   * revokedServiceTokens are the revoked tokens, kept so that a call with one is told apart from
   * a call with a token that never existed (absent from snapshots of older control planes).
   */
  revokedServiceTokens?: {
    id: number;
    name: string;
    tokenHash: string;
  }[];
  /**
   * routeRules are the gateway's route rules, in order (absent from snapshots of older control
   * planes, and when there are none: no rules).
   */
  routeRules?: RouteRule[];
}

/** ServiceTokenPolicy is what the decision API needs to know about a service token, in memory. */
export interface ServiceTokenPolicy {
  id: number;
  name: string;
  scopes: ReadonlySet<ServiceTokenScope>;
}

/** RevokedServiceToken is a revoked token as the snapshot remembers it: whom its calls are counted against. */
export interface RevokedServiceToken {
  id: number;
  name: string;
}

/**
 * PolicySnapshot indexes customers by API-key hash and by id, and the live and the revoked
 * service tokens by hash; it is immutable once built.
 */
export interface PolicySnapshot {
  /** classes are the operation classes a request may name: any other is refused (400). */
  classes: ReadonlySet<Operation>;
  byKeyHash: ReadonlyMap<string, CustomerPolicy>;
  byId: ReadonlyMap<number, CustomerPolicy>;
  serviceTokens: ReadonlyMap<string, ServiceTokenPolicy>;
  revokedServiceTokens: ReadonlyMap<string, RevokedServiceToken>;
  /** routes match gateway requests to their route rules (compiled once, here). */
  routes: RouteMatcher;
  builtAt: number;
}

/** NONE is the limits of a class a plan does not name: none (unlimited). */
const NONE: Limit[] = [];
Object.freeze(NONE);

/** NO_OVERRIDES is the overrides of a customer that has none (one map shared by all). */
const NO_OVERRIDES: ReadonlyMap<Operation, OverridePolicy> = new Map();

/** bucketKey names a customer's bucket for one operation class: `${customerId}:${class}`. */
export function bucketKey(customerId: number, operation: Operation): string {
  return `${customerId}:${operation}`;
}

/**
 * BucketKeys name one customer's buckets by class (`bucketKey`): read's and write's made with the
 * snapshot, another class's on its first decision and kept, so that no decision builds a string
 * and a snapshot of many customers costs one small object each.
 */
export class BucketKeys {
  readonly read: string;
  readonly write: string;
  private others: Map<Operation, string> | undefined;

  constructor(private readonly customerId: number) {
    this.read = bucketKey(customerId, "read");
    this.write = bucketKey(customerId, "write");
  }

  /** get is the key of the customer's bucket of `operation`. */
  get(operation: Operation): string {
    if (operation === "read") return this.read;
    if (operation === "write") return this.write;
    let key = this.others?.get(operation);
    if (key === undefined) {
      key = bucketKey(this.customerId, operation);
      this.others ??= new Map();
      this.others.set(operation, key);
    }
    return key;
  }
}

/** activeOverride returns the customer's override for the operation if it applies at `now` (ms). */
export function activeOverride(
  customer: CustomerPolicy,
  operation: Operation,
  now: number,
): OverridePolicy | undefined {
  const override = customer.overrides.get(operation);
  return override && (override.expiresAt === null || now < override.expiresAt)
    ? override
    : undefined;
}

/** limitsFor returns the enforced limits of a customer's operation at `now` (ms). */
export function limitsFor(customer: CustomerPolicy, operation: Operation, now: number): Limit[] {
  return (
    activeOverride(customer, operation, now)?.limits ?? customer.planLimits.get(operation) ?? NONE
  );
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
  return (
    activeOverride(customer, operation, now)?.dryRun ?? customer.planDryRun.get(operation) ?? NONE
  );
}

/** NO_GRANTS is the grants of every customer that has none (one map, never written to). */
const NO_GRANTS: ReadonlyMap<string, number> = new Map();

/** buildSnapshot turns stored rows into the in-memory policy. */
export function buildSnapshot(rows: PolicyRows, builtAt: number): PolicySnapshot {
  const classList = rows.classes ?? [...DEFAULT_CLASSES];
  const classes: ReadonlySet<Operation> = new Set(classList);
  const planById = new Map(
    rows.plans.map((plan) => {
      const limits = new Map<Operation, Limit[]>();
      const dryRun = new Map<Operation, Limit[]>();
      for (const row of plan.limits) {
        const byClass = row.dryRun ? dryRun : limits;
        let list = byClass.get(row.operation);
        if (!list) {
          list = [];
          byClass.set(row.operation, list);
        }
        list.push(limit(row.count, row.periodMs));
      }
      return [plan.id, { slug: plan.slug, name: plan.name, limits, dryRun }] as const;
    }),
  );
  // Overrides grouped by customer first: scanning them all for each customer cost
  // customers × overrides (2.9 s for 100,000 customers and 10,000 overrides, on every edit).
  const overridesOf = new Map<number, Map<Operation, OverridePolicy>>();
  for (const o of rows.overrides) {
    let overrides = overridesOf.get(o.customerId);
    if (!overrides) {
      overrides = new Map();
      overridesOf.set(o.customerId, overrides);
    }
    let entry = overrides.get(o.operation);
    if (!entry) {
      entry = { limits: [], dryRun: [], expiresAt: o.expiresAt };
      overrides.set(o.operation, entry);
    }
    (o.dryRun ? entry.dryRun : entry.limits).push(limit(o.count, o.periodMs));
  }
  const byId = new Map<number, CustomerPolicy>();
  const byKeyHash = new Map<string, CustomerPolicy>();
  for (const row of rows.customers) {
    const plan = planById.get(row.planId);
    if (!plan) continue;
    const overrides = overridesOf.get(row.id) ?? NO_OVERRIDES;
    const customer: CustomerPolicy = {
      id: row.id,
      name: row.name,
      status: row.status,
      planId: row.planId,
      planSlug: plan.slug,
      planName: plan.name,
      bucketKeys: new BucketKeys(row.id),
      planLimits: plan.limits,
      planDryRun: plan.dryRun,
      overrides,
      apiKeyHash: row.apiKeyHash,
      billingAnchorDay: row.billingAnchorDay,
      grants: row.grants ? new Map(Object.entries(row.grants)) : NO_GRANTS,
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
  const revokedServiceTokens = new Map<string, RevokedServiceToken>();
  for (const token of rows.revokedServiceTokens ?? []) {
    revokedServiceTokens.set(token.tokenHash, { id: token.id, name: token.name });
  }
  const rules = rows.routeRules ?? [];
  const routes = rules.length === 0 ? NO_ROUTE_RULES : new RouteMatcher(rules);
  return { classes, byKeyHash, byId, serviceTokens, revokedServiceTokens, routes, builtAt };
}

/** limitIds names a list of limits by their ids, in order: "5/1000,100/60000". */
function limitIds(limits: readonly Limit[]): string {
  return limits.map((l) => l.id).join(",");
}

/** policyFingerprint is everything of a customer's policy that a decision or its key depends on. */
function policyFingerprint(customer: CustomerPolicy): string {
  const parts: string[] = [
    customer.status,
    String(customer.planId),
    customer.apiKeyHash,
    String(customer.billingAnchorDay),
  ];
  // A grant's key holds no "=" or ";" (a class name, a period, a zone name, digits).
  if (customer.grants.size > 0) {
    parts.push(
      [...customer.grants]
        .map(([key, extra]) => `${key}=${extra}`)
        .sort()
        .join(";"),
    );
  }
  const named = new Set([...customer.planLimits.keys(), ...customer.overrides.keys()]);
  for (const operation of [...named].sort()) {
    const override = customer.overrides.get(operation);
    parts.push(
      `${operation}=${limitIds(customer.planLimits.get(operation) ?? NONE)}`,
      override ? `${limitIds(override.limits)}@${override.expiresAt ?? "never"}` : "-",
    );
  }
  return parts.join("|");
}

/**
 * changedCustomers lists the ids of the customers whose policy differs between two snapshots:
 * added, removed, or with another status, plan, limits, override, API key, billing anchor day or
 * grants.
 */
export function changedCustomers(before: PolicySnapshot, after: PolicySnapshot): number[] {
  const changed: number[] = [];
  for (const [id, customer] of after.byId) {
    const was = before.byId.get(id);
    if (!was || policyFingerprint(was) !== policyFingerprint(customer)) changed.push(id);
  }
  for (const id of before.byId.keys()) if (!after.byId.has(id)) changed.push(id);
  return changed;
}
