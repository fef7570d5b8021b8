/** OPERATIONS are the kinds of request a plan limits: GET and HEAD read, every other method writes. */
export const OPERATIONS = ["read", "write"] as const;

/** Operation is "read" or "write". */
export type Operation = (typeof OPERATIONS)[number];
