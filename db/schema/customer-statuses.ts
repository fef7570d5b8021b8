/** CUSTOMER_STATUSES: a suspended customer's requests are refused with 403. (No drizzle import: forms use it.) */
export const CUSTOMER_STATUSES = ["active", "suspended"] as const;

/** CustomerStatus is "active" or "suspended". */
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
