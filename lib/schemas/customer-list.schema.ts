import { z } from "zod";
import { CUSTOMER_STATUSES } from "@/lib/vocabulary";
import { type CursorKey, checkCursors, pageParams, searchParam } from "./list.schema";
import { idParam } from "./query.schema";

/**
 * CUSTOMER_SORTS are the orders of the customers list: newest first (the default, so a customer
 * just created is on top), by name, or by traffic over the last 5 minutes, most first.
 */
export const CUSTOMER_SORTS = ["newest", "name", "traffic"] as const;

/** CustomerSort is one of CUSTOMER_SORTS. */
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

/** customerCursorFits tells whether a cursor's key has the shape its sort writes. */
export function customerCursorFits(sort: CustomerSort, key: CursorKey): boolean {
  const [a, b] = key;
  if (sort === "newest") return key.length === 1 && Number.isSafeInteger(a);
  if (sort === "name") return key.length === 2 && typeof a === "string" && Number.isSafeInteger(b);
  return key.length === 2 && Number.isSafeInteger(a) && Number.isSafeInteger(b);
}

/**
 * customerListQuerySchema is the customers list's query string, for GET /api/admin/customers
 * and the customers page's URL: `q` finds a name (any part), a key prefix ("rk_…") or an id,
 * `plan` and `status` filter, `sort` orders, `after`/`before` page, `limit` sizes the page.
 */
export const customerListQuerySchema = z
  .object({
    q: searchParam.optional(),
    plan: idParam("plan").optional(),
    status: z.enum(CUSTOMER_STATUSES, { error: "Must be active or suspended" }).optional(),
    sort: z
      .enum(CUSTOMER_SORTS, { error: "Must be newest, name or traffic" })
      .optional()
      .transform((s) => s ?? "newest"),
    ...pageParams,
  })
  .strict()
  .superRefine((v, ctx) => checkCursors(v, ctx, (key) => customerCursorFits(v.sort, key)));

/** CustomerListQuery is a validated customers list query. */
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;
