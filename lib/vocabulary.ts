// The words every floor of the app shares, defined once: the database schema, the policy, the
// admin API, the dashboard and its browser bundle all import them from here. Nothing here may
// import anything of the app.

/** OPERATIONS are the kinds of request a plan limits: GET and HEAD read, every other method writes. */
export const OPERATIONS = ["read", "write"] as const;

/** Operation is "read" or "write". */
export type Operation = (typeof OPERATIONS)[number];

/** operationOf maps an HTTP method to an operation: GET and HEAD read, every other method writes. */
export function operationOf(method: string): Operation {
  return method === "GET" || method === "HEAD" ? "read" : "write";
}

/** CUSTOMER_STATUSES: a suspended customer's requests are refused with 403. */
export const CUSTOMER_STATUSES = ["active", "suspended"] as const;

/** CustomerStatus is "active" or "suspended". */
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/** LimitShape is a limit as stored and sent over the wire: `count` tokens per `periodMs` ms. */
export interface LimitShape {
  count: number;
  periodMs: number;
}

/** LimitRow is one limit of a plan or an override: a shape for one operation. */
export interface LimitRow extends LimitShape {
  operation: Operation;
}

/**
 * AUDIT_ACTIONS are the kinds of operator change the audit log records, as stored in its
 * `action` column: the services write them, the audit filter accepts only them.
 */
export const AUDIT_ACTIONS = [
  "plan.create",
  "plan.update",
  "plan.delete",
  "customer.create",
  "customer.update",
  "customer.suspend",
  "customer.activate",
  "customer.rotate-key",
  "customer.reset-buckets",
  "customer.delete",
  "override.set",
  "override.clear",
  "service-token.create",
  "service-token.revoke",
] as const;

/** AuditAction is one of AUDIT_ACTIONS. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * SERVICE_TOKEN_SCOPES are what a service token may do with the decision API: `decide` takes
 * tokens from customers' buckets (and may peek); `peek` may only ask without taking.
 */
export const SERVICE_TOKEN_SCOPES = ["decide", "peek"] as const;

/** ServiceTokenScope is "decide" or "peek". */
export type ServiceTokenScope = (typeof SERVICE_TOKEN_SCOPES)[number];

/**
 * ROLES are what an instance can be: the full app ("full": the control plane, with its database,
 * dashboard and admin API, and the data plane), or an edge ("edge": the data plane only, its
 * policy read from Redis, no database).
 */
export const ROLES = ["full", "edge"] as const;

/** Role is "full" or "edge". */
export type Role = (typeof ROLES)[number];
