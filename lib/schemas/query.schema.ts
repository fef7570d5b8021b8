import { z } from "zod";
import { classNameSchema } from "./operation-class.schema";

/**
 * wholeNumberParam is a query parameter holding a whole number from `min` to `max`, written in
 * decimal digits only: no sign, fraction, exponent, spaces or empty value.
 */
export function wholeNumberParam(name: string, min: number, max: number) {
  const range = `${name} must be a whole number from ${min} to ${max.toLocaleString("en-US")}`;
  return z
    .string({ error: `Give ${name} once, as a whole number` })
    .regex(/^\d{1,16}$/, range)
    .transform(Number)
    .pipe(z.number().min(min, range).max(max, range));
}

/** idParam is a query parameter holding a row id: a positive safe integer. */
export function idParam(name: string) {
  return wholeNumberParam(name, 1, Number.MAX_SAFE_INTEGER);
}

/** MAX_ITEMS_PAGE is the largest page of items one list request returns. */
export const MAX_ITEMS_PAGE = 500;

/** itemListQuerySchema is `GET /api/v1/items?limit=&after=`: page size (default 50), cursor. */
export const itemListQuerySchema = z
  .object({
    limit: wholeNumberParam("limit", 1, MAX_ITEMS_PAGE).default(50),
    after: idParam("after").optional(),
  })
  .strict();

/** benchItemsQuerySchema is the bench twin's query: the items list's, plus whose items. */
export const benchItemsQuerySchema = itemListQuerySchema.extend({ customer: idParam("customer") });

/** MAX_TRAFFIC_SECONDS is the longest span of traffic kept in memory: 5 minutes, in seconds. */
export const MAX_TRAFFIC_SECONDS = 300;

/** trafficQuerySchema is `GET /api/admin/traffic?seconds=&customerId=&operation=`. */
export const trafficQuerySchema = z
  .object({
    seconds: wholeNumberParam("seconds", 1, MAX_TRAFFIC_SECONDS).default(MAX_TRAFFIC_SECONDS),
    customerId: idParam("customerId").optional(),
    operation: classNameSchema.optional(),
  })
  .strict();

/**
 * inspectQuerySchema is `GET /api/admin/customers/:id/inspect?history=`: with `history`, the
 * answer also replays each bucket's level over that many seconds before now (1 to 300).
 */
export const inspectQuerySchema = z
  .object({ history: wholeNumberParam("history", 1, MAX_TRAFFIC_SECONDS).optional() })
  .strict();
