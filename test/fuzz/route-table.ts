import fc from "fast-check";
import { MAX_COST } from "@/lib/schemas/cost.schema";
import { encodeCursor } from "@/lib/schemas/list.schema";
import { MAX_GRANT_EXTRA } from "@/lib/schemas/quota-grant.schema";
import { ROUTE_METHODS } from "@/lib/schemas/route-rule.schema";
import {
  AUDIT_ACTIONS,
  CLASS_NAME_PATTERN,
  CUSTOMER_STATUSES,
  DEFAULT_CLASSES,
  QUOTA_PERIODS,
  SERVICE_TOKEN_SCOPES,
} from "@/lib/vocabulary";
import type { QuerySpec } from "./http-parts";

// What the fuzz suite needs to know of each route: its valid bodies and query parameters, and
// the kinds of its path parameters. Everything hostile is derived from these. A route found
// under app/api without an entry here fails the suite (see routes.test.ts).

/** NO_BODY marks a route that reads no body. */
export const NO_BODY = null;

/** RouteSpec is what a route reads: a body (an arbitrary of valid ones) and query parameters. */
export interface RouteSpec {
  body: fc.Arbitrary<unknown> | typeof NO_BODY;
  query?: QuerySpec;
}

/** ParamSpec is a kind of path parameter: valid values, and how to tell a well-formed one. */
export interface ParamSpec {
  /** valid values, with placeholders (`{callerItem}`, see world.ts) for ids that exist. */
  valid: fc.Arbitrary<string>;
  /** wellFormed says whether a decoded value has the parameter's form (exists or not). */
  wellFormed(decoded: string): boolean;
}

/** ids are well-formed ids: of the world's customers, plans and items, small, or unused. */
const ids = fc.oneof(
  fc.constantFrom(
    "{callerId}",
    "{otherId}",
    "{demoId}",
    "{callerPlan}",
    "{callerItem}",
    "{otherItem}",
  ),
  fc.integer({ min: 1, max: 40 }).map(String),
  fc.constantFrom("999999", String(Number.MAX_SAFE_INTEGER)),
);

/** PARAMS are the path parameter kinds, by the name of their `[folder]`. */
export const PARAMS: Record<string, ParamSpec> = {
  id: {
    valid: ids,
    wellFormed: (s) => /^[1-9]\d*$/.test(s) && Number.isSafeInteger(Number(s)),
  },
  operation: {
    valid: fc.constantFrom(...DEFAULT_CLASSES),
    wellFormed: (s) => CLASS_NAME_PATTERN.test(s),
  },
  /** name is an operation class's name: the defaults, and some that may exist or not. */
  name: {
    valid: fc.oneof(
      fc.constantFrom(...DEFAULT_CLASSES, "exports", "fuzz"),
      fc.stringMatching(CLASS_NAME_PATTERN),
    ),
    wellFormed: (s) => CLASS_NAME_PATTERN.test(s),
  },
};

const name = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .'-]{0,30}$/);
const slug = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/);
const planId = fc.integer({ min: 1, max: 6 });
const billingAnchorDay = fc.integer({ min: 1, max: 31 });
const count = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constant(1_000_000));
const periodMs = fc.oneof(fc.integer({ min: 1, max: 86_400_000 }), fc.constant(2_592_000_000));
const limitShape = fc.record({ count, periodMs });
/** cost is a cost under the one cost rule: small ones, and the ceiling. */
const cost = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(MAX_COST));
const bucketRow = fc.record({ operation: fc.constantFrom(...DEFAULT_CLASSES), count, periodMs });
/** quotaShape is a quota row's fields: a count up to the quotas' ceiling, a period, maybe a zone. */
const quotaShape = fc.record(
  {
    count: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constant(1_000_000_000)),
    period: fc.constantFrom(...QUOTA_PERIODS),
    timeZone: fc.constantFrom("UTC", "Europe/Berlin", "america/new_york", "Asia/Kolkata"),
  },
  { requiredKeys: ["count", "period"] },
);
/** anyLimitShape is an override's limit: a bucket's or a quota's. */
const anyLimitShape = fc.oneof(limitShape, quotaShape);
/** limitRow is a plan's limit row: a bucket's or a quota's. */
const limitRow = fc.oneof(
  bucketRow,
  fc
    .tuple(fc.constantFrom(...DEFAULT_CLASSES), quotaShape)
    .map(([operation, quota]) => ({ operation, ...quota })),
);
/** limitIdentity is what two limits of one list must not share (a quota's class, period and zone). */
const limitIdentity = (row: Record<string, unknown>) =>
  "period" in row
    ? `${row.operation}|${row.period}|${String(row.timeZone ?? "UTC").toLowerCase()}`
    : JSON.stringify(row);
const item = fc.record(
  { name, quantity: fc.integer({ min: 0, max: 1_000 }) },
  { requiredKeys: ["name"] },
);
/** routePattern is a route rule's pattern (the rules given may repeat one: then a 400). */
const routePattern = fc.constantFrom("/", "/health", "/v1/exports", "/users/*/files", "/static/**");
const limitQuery = (max: number) => fc.integer({ min: 1, max }).map(String);
/** usageRange is a usage query's range: ms since the epoch or ISO 8601, each end optional. */
const usageRange = {
  from: fc.constantFrom("1700000000000", "2026-11-01", "2026-11-20T08:00:00Z"),
  to: fc.constantFrom("1800000000000", "2026-12-01", "2026-11-21T08:00:00+01:00"),
};
/** usageFilters are the filters every usage query takes. */
const usageFilters = {
  ...usageRange,
  customerId: ids,
  planId: ids,
  operation: fc.constantFrom(...DEFAULT_CLASSES),
};
/** cursors are cursors the lists write: a sort key ([name, id], [id], [volume or time, id]). */
const cursor = fc
  .oneof(
    fc.tuple(name, fc.integer({ min: 1, max: 40 })),
    fc.tuple(fc.integer({ min: 1, max: 40 })),
    fc.tuple(fc.integer({ min: 0, max: 2_000_000_000_000 }), fc.integer({ min: 1, max: 40 })),
  )
  .map((key) => encodeCursor(key));
const instant = fc
  .integer({ min: 0, max: 4_102_444_800_000 })
  .map((ms) => encodeURIComponent(new Date(ms).toISOString()));

/** ROUTES is every route of app/api by "METHOD /path", with what it reads. */
export const ROUTES: Record<string, RouteSpec> = {
  "GET /api/admin/audit": {
    body: NO_BODY,
    query: {
      action: fc.constantFrom(...AUDIT_ACTIONS),
      actor: name.map(encodeURIComponent),
      customer: ids,
      from: instant,
      to: instant,
      after: cursor,
      before: cursor,
      limit: limitQuery(200),
    },
  },
  "GET /api/admin/customers": {
    body: NO_BODY,
    query: {
      q: name.map(encodeURIComponent),
      plan: ids,
      status: fc.constantFrom(...CUSTOMER_STATUSES),
      sort: fc.constantFrom("newest", "name", "traffic"),
      after: cursor,
      before: cursor,
      limit: limitQuery(200),
    },
  },
  "GET /api/admin/classes": { body: NO_BODY },
  "POST /api/admin/classes": {
    body: fc.record(
      {
        name: fc.oneof(
          fc.constantFrom("exports", "fuzz"),
          fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/),
        ),
        description: fc.string({ maxLength: 40 }),
      },
      { requiredKeys: ["name"] },
    ),
  },
  "PATCH /api/admin/classes/[name]": {
    body: fc.record({ description: fc.string({ maxLength: 40 }) }),
  },
  "DELETE /api/admin/classes/[name]": { body: NO_BODY },
  "POST /api/admin/customers": {
    body: fc.record({ name, planId, billingAnchorDay }, { requiredKeys: ["name", "planId"] }),
  },
  "GET /api/admin/customers/[id]": { body: NO_BODY },
  "PATCH /api/admin/customers/[id]": {
    body: fc.record(
      { name, planId, status: fc.constantFrom("active", "suspended"), billingAnchorDay },
      { requiredKeys: [] },
    ),
  },
  "DELETE /api/admin/customers/[id]": { body: NO_BODY },
  "GET /api/admin/customers/[id]/inspect": { body: NO_BODY, query: { history: limitQuery(300) } },
  "PUT /api/admin/customers/[id]/overrides/[operation]": {
    body: fc.record(
      {
        limits: fc.uniqueArray(anyLimitShape, {
          minLength: 1,
          maxLength: 3,
          selector: limitIdentity,
        }),
        expiresAt: fc.oneof(fc.constant(null), fc.constant(4_102_444_800_000)),
      },
      { requiredKeys: ["limits"] },
    ),
  },
  "DELETE /api/admin/customers/[id]/overrides/[operation]": { body: NO_BODY },
  "GET /api/admin/customers/[id]/quota-grants": { body: NO_BODY },
  "POST /api/admin/customers/[id]/quota-grants": {
    body: fc.record(
      {
        operation: fc.oneof(
          fc.constantFrom(...DEFAULT_CLASSES),
          fc.stringMatching(CLASS_NAME_PATTERN),
        ),
        period: fc.constantFrom(...QUOTA_PERIODS),
        timeZone: fc.constantFrom("UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo"),
        periodStartMs: fc.integer({ min: 0, max: 4_102_444_800_000 }),
        extra: fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.constant(MAX_GRANT_EXTRA)),
        note: name,
      },
      { requiredKeys: ["operation", "period", "timeZone", "periodStartMs", "extra"] },
    ),
  },
  "POST /api/admin/customers/[id]/reset": { body: NO_BODY },
  "POST /api/admin/customers/[id]/rotate-key": { body: NO_BODY },
  "POST /api/admin/customers/[id]/test-request": {
    body: fc.record(
      { operation: fc.constantFrom(...DEFAULT_CLASSES), cost },
      { requiredKeys: ["operation"] },
    ),
  },
  "GET /api/admin/plans": { body: NO_BODY },
  "POST /api/admin/plans": {
    body: fc.record(
      {
        slug,
        name,
        description: fc.string({ maxLength: 40 }),
        limits: fc.uniqueArray(limitRow, { maxLength: 3, selector: limitIdentity }),
      },
      { requiredKeys: ["slug", "name"] },
    ),
  },
  "GET /api/admin/plans/[id]": { body: NO_BODY },
  "PATCH /api/admin/plans/[id]": {
    body: fc.record(
      {
        slug,
        name,
        description: fc.string({ maxLength: 40 }),
        limits: fc.uniqueArray(limitRow, { maxLength: 3, selector: limitIdentity }),
      },
      { requiredKeys: [] },
    ),
  },
  "DELETE /api/admin/plans/[id]": { body: NO_BODY },
  "GET /api/admin/session": { body: NO_BODY },
  "POST /api/admin/session": {
    // Right and wrong passwords: each costs a password hash (scrypt), so the right one is rarer.
    body: fc.record({
      password: fc.oneof(fc.constant("test-password"), { weight: 3, arbitrary: fc.string() }),
    }),
  },
  "DELETE /api/admin/session": { body: NO_BODY },
  "GET /api/admin/traffic": {
    body: NO_BODY,
    query: { seconds: limitQuery(300), customerId: ids },
  },
  "GET /api/admin/usage": {
    body: NO_BODY,
    query: { ...usageFilters, granularity: fc.constantFrom("minute", "hour", "day") },
  },
  "GET /api/admin/usage/top": {
    body: NO_BODY,
    query: { ...usageFilters, limit: limitQuery(100) },
  },
  "GET /api/admin/usage/plans": { body: NO_BODY, query: usageFilters },
  "GET /api/admin/usage/near-limit": {
    body: NO_BODY,
    query: {
      ...usageFilters,
      minShare: fc.constantFrom("0.05", "0.5", "0.8", "1"),
      limit: limitQuery(500),
    },
  },
  "GET /api/admin/usage.csv": { body: NO_BODY, query: usageFilters },
  "GET /api/admin/plans/[id]/dry-run": { body: NO_BODY, query: usageRange },
  "POST /api/admin/plans/[id]/dry-run/promote": {
    body: fc.record({ operation: fc.constantFrom(...DEFAULT_CLASSES) }, { requiredKeys: [] }),
  },
  "GET /api/admin/customers/[id]/dry-run": { body: NO_BODY, query: usageRange },
  "POST /api/admin/customers/[id]/overrides/[operation]/promote": { body: NO_BODY },
  "GET /api/admin/service-tokens": { body: NO_BODY },
  "POST /api/admin/service-tokens": {
    body: fc.record({
      name,
      scopes: fc.subarray([...SERVICE_TOKEN_SCOPES], { minLength: 1 }),
    }),
  },
  "DELETE /api/admin/service-tokens/[id]": { body: NO_BODY },
  "GET /api/admin/route-rules": { body: NO_BODY },
  "PUT /api/admin/route-rules": {
    body: fc.record({
      rules: fc.array(
        fc.oneof(
          fc.record({
            method: fc.constantFrom(...ROUTE_METHODS),
            pattern: routePattern,
            unmetered: fc.constant(true),
          }),
          fc.record(
            {
              method: fc.constantFrom(...ROUTE_METHODS),
              pattern: routePattern,
              operation: fc.constantFrom(...DEFAULT_CLASSES),
              cost,
            },
            { requiredKeys: ["method", "pattern"] },
          ),
        ),
        { maxLength: 4 },
      ),
    }),
  },
  "POST /api/admin/route-rules/test": {
    body: fc.record({ method: fc.constantFrom("GET", "POST", "DELETE"), path: routePattern }),
  },
  "POST /api/bench/decisions": {
    // The decision API's answer through a Next route: its key or id, operation, cost and peek.
    body: fc.oneof(
      fc.record(
        {
          key: fc.string({ maxLength: 40 }),
          operation: fc.constantFrom(...DEFAULT_CLASSES),
          cost,
          peek: fc.boolean(),
        },
        { requiredKeys: ["key", "operation"] },
      ),
      fc.record({
        customerId: fc.integer({ min: 1, max: 40 }),
        operation: fc.constantFrom(...DEFAULT_CLASSES),
      }),
    ),
  },
  "GET /api/bench/items": {
    body: NO_BODY,
    query: { customer: ids, limit: limitQuery(500), after: ids },
  },
  "GET /api/health": { body: NO_BODY },
  "GET /api/metrics": { body: NO_BODY },
  "GET /api/v1/items": { body: NO_BODY, query: { limit: limitQuery(500), after: ids } },
  "POST /api/v1/items": { body: item },
  "GET /api/v1/items/[id]": { body: NO_BODY },
  "PATCH /api/v1/items/[id]": {
    body: fc.record({ name, quantity: fc.integer({ min: 0, max: 1_000 }) }, { requiredKeys: [] }),
  },
  "DELETE /api/v1/items/[id]": { body: NO_BODY },
  "POST /api/v1/items/bulk": {
    body: fc.record({ items: fc.array(item, { minLength: 1, maxLength: 5 }) }),
  },
};
