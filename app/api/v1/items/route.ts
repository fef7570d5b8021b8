import { insertItems, listItems } from "@/db/queries/items";
import { json } from "@/lib/http/response";
import { demoRoute } from "@/lib/next/demo";
import { protect } from "@/lib/next/protect";
import { itemCreateSchema } from "@/lib/schemas/item.schema";
import { itemListQuerySchema } from "@/lib/schemas/query.schema";

/**
 * GET /api/v1/items?limit=&after= lists the caller's items (a read): `limit` from 1 to 500
 * (default 50), after the item id `after`. A bad parameter is a 400 that costs nothing.
 */
export const GET = demoRoute(
  protect({ query: itemListQuerySchema }, ({ query, customer, runtime }) => {
    const { limit, after } = query;
    const items = listItems(runtime.db, customer.id, { limit, afterId: after });
    return json({ items, next: items.length === limit ? items.at(-1)?.id : null });
  }),
);

/** POST /api/v1/items creates one item (a write). */
export const POST = demoRoute(
  protect({ body: itemCreateSchema }, ({ body, customer, runtime }) => {
    const [item] = insertItems(runtime.db, customer.id, [body], runtime.clock.now());
    return json({ item }, { status: 201 });
  }),
);
