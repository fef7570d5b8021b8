import { type AnyLimit, type Limit, Quota } from "@/lib/limiter";
import type { RouteRule } from "@/lib/schemas/route-rule.schema";
import {
  type AnyLimitRow,
  type CustomerStatus,
  DEFAULT_CLASSES,
  type Operation,
  type QuotaPeriod,
  type ServiceTokenScope,
} from "@/lib/vocabulary";
import { grantedExtra } from "./quota-grants";
import { NO_ROUTE_RULES, RouteMatcher } from "./route-rules";
import { type LimitMaker, limitMaker, quotaZone } from "./snapshot-limits";

/**
 * OverridePolicy replaces a plan's limits for one operation, enforced (buckets and quotas) and
 * dry-run (buckets only) alike, until `expiresAt` (ms), if set.
 */
export interface OverridePolicy {
  limits: AnyLimit[];
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
  /**
   * planLimits are the plan's enforced limits by class, buckets and quotas (months anchored on
   * the customer's billing anchor day); a class it does not name is unlimited.
   */
  planLimits: ReadonlyMap<Operation, AnyLimit[]>;
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

/** OverrideRowOfPolicy is one stored override limit, a bucket's or a quota's, as a snapshot reads it. */
export type OverrideRowOfPolicy = {
  customerId: number;
  operation: Operation;
  count: number;
  dryRun: boolean;
  expiresAt: number | null;
} & ({ periodMs: number } | { period: QuotaPeriod; timeZone?: string });

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
    /** limits are bucket rows (`periodMs`) and quota rows (`period`, `timeZone`: UTC if absent). */
    limits: AnyLimitRow[];
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
  /** overrides are bucket rows (`periodMs`) and quota rows (`period`, `timeZone`). */
  overrides: OverrideRowOfPolicy[];
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

/**
 * limitsFor returns the enforced limits of a customer's operation at `now` (ms since the epoch):
 * buckets and quotas, a quota's count raised by the customer's grant for its period holding
 * `now` (grantedExtra). A customer without grants gets the shared list as it is (no allocation).
 */
export function limitsFor(customer: CustomerPolicy, operation: Operation, now: number): AnyLimit[] {
  const limits =
    activeOverride(customer, operation, now)?.limits ?? customer.planLimits.get(operation) ?? NONE;
  return customer.grants.size === 0 ? limits : withGrants(customer, operation, limits, now);
}

/** withGrants is `limits` with each granted quota's count raised for the period holding `now`. */
function withGrants(
  customer: CustomerPolicy,
  operation: Operation,
  limits: AnyLimit[],
  now: number,
): AnyLimit[] {
  let granted: AnyLimit[] | undefined;
  for (let i = 0; i < limits.length; i++) {
    const q = limits[i];
    if (!(q instanceof Quota)) continue;
    q.calendar.refresh(now);
    const zone = quotaZone(q);
    const extra = grantedExtra(customer, operation, q.period, zone, q.calendar.startMs);
    if (extra === 0) continue;
    granted ??= limits.slice();
    granted[i] = GRANTED.make(q.count + extra, q.period, zone, q.anchorDay);
  }
  return granted ?? limits;
}

/** GRANTED makes the quotas of granted counts, shared by every snapshot (few: one per grant). */
const GRANTED: LimitMaker = limitMaker();

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
  const make = limitMaker();
  const planById = new Map(
    rows.plans.map((plan) => [plan.id, new PlanPolicy(plan.slug, plan.name, plan.limits, make)]),
  );
  // Overrides grouped by customer first: scanning them all for each customer cost
  // customers × overrides (2.9 s for 100,000 customers and 10,000 overrides, on every edit).
  const overrideRowsOf = new Map<number, OverrideRowOfPolicy[]>();
  for (const o of rows.overrides) {
    let list = overrideRowsOf.get(o.customerId);
    if (!list) {
      list = [];
      overrideRowsOf.set(o.customerId, list);
    }
    list.push(o);
  }
  const byId = new Map<number, CustomerPolicy>();
  const byKeyHash = new Map<string, CustomerPolicy>();
  for (const row of rows.customers) {
    const plan = planById.get(row.planId);
    if (!plan) continue;
    const overrideRows = overrideRowsOf.get(row.id);
    const overrides = overrideRows
      ? overridesOf(overrideRows, row.billingAnchorDay, make)
      : NO_OVERRIDES;
    const planLimits = plan.of(row.billingAnchorDay);
    const customer: CustomerPolicy = {
      id: row.id,
      name: row.name,
      status: row.status,
      planId: row.planId,
      planSlug: plan.slug,
      planName: plan.name,
      bucketKeys: new BucketKeys(row.id),
      planLimits: planLimits.limits,
      planDryRun: planLimits.dryRun,
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

/**
 * PlanPolicy is a plan's limits as its customers meet them: the same lists for every customer
 * when the plan has no monthly quota, else one set per billing anchor day in use (made on its
 * first customer), so a Quota is shared by every customer of one (row, anchor day).
 */
class PlanPolicy {
  private readonly byAnchor = new Map<number, PlanLimits>();
  private readonly monthly: boolean;

  constructor(
    readonly slug: string,
    readonly name: string,
    private readonly rows: readonly AnyLimitRow[],
    private readonly make: LimitMaker,
  ) {
    this.monthly = rows.some((row) => "period" in row && row.period === "month");
  }

  /** of returns the plan's limits for customers billed from `anchorDay` (1..31). */
  of(anchorDay: number): PlanLimits {
    const key = this.monthly ? anchorDay : 0;
    let limits = this.byAnchor.get(key);
    if (!limits) {
      limits = { limits: new Map(), dryRun: new Map() };
      for (const row of this.rows) {
        const made = this.make.row(row, anchorDay);
        // A dry-run quota (refused on save: QUOTA_DRY_RUN_RULE) is neither enforced nor tried.
        if (made instanceof Quota) {
          if (!row.dryRun) pushTo(limits.limits, row.operation, made);
        } else pushTo(row.dryRun ? limits.dryRun : limits.limits, row.operation, made);
      }
      this.byAnchor.set(key, limits);
    }
    return limits;
  }
}

/** PlanLimits are a plan's enforced and dry-run limits by class, for one anchor day. */
interface PlanLimits {
  limits: Map<Operation, AnyLimit[]>;
  dryRun: Map<Operation, Limit[]>;
}

function pushTo<T>(byClass: Map<Operation, T[]>, operation: Operation, item: T): void {
  let list = byClass.get(operation);
  if (!list) {
    list = [];
    byClass.set(operation, list);
  }
  list.push(item);
}

/** overridesOf builds one customer's overrides by class, its quotas anchored on `anchorDay`. */
function overridesOf(
  rows: readonly OverrideRowOfPolicy[],
  anchorDay: number,
  make: LimitMaker,
): Map<Operation, OverridePolicy> {
  const overrides = new Map<Operation, OverridePolicy>();
  for (const o of rows) {
    let entry = overrides.get(o.operation);
    if (!entry) {
      entry = { limits: [], dryRun: [], expiresAt: o.expiresAt };
      overrides.set(o.operation, entry);
    }
    const made = make.row(o, anchorDay);
    if (!o.dryRun) entry.limits.push(made);
    else if (!(made instanceof Quota)) entry.dryRun.push(made);
  }
  return overrides;
}

/** limitIds names a list of limits by their ids, in order: "5/1000,100/60000,9@month:1:UTC". */
function limitIds(limits: readonly AnyLimit[]): string {
  return limits.map((l) => l.id).join(",");
}

/**
 * policyFingerprint is everything of a customer's policy that a decision or its key depends on:
 * its quotas too (a quota's id names its count, period, zone and anchor day).
 */
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
