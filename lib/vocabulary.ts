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
 * SERVICE_TOKEN_SCOPES are what a service token may do with the decision API: `decide` takes
 * tokens from customers' buckets (and may peek); `peek` may only ask without taking.
 */
export const SERVICE_TOKEN_SCOPES = ["decide", "peek"] as const;

/** ServiceTokenScope is "decide" or "peek". */
export type ServiceTokenScope = (typeof SERVICE_TOKEN_SCOPES)[number];
