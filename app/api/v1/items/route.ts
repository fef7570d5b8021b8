import { insertItems, listItems } from "@/db/queries/items";
import { json } from "@/lib/http";
import { protect } from "@/lib/route/protect";
import { itemCreateSchema } from "@/lib/schemas/item.schema";

/** GET /api/v1/items?limit=&after= lists the caller's items (a read). */
export const GET = protect({}, ({ request, customer, runtime }) => {
  const url = new URL(request.url);
  const limit = Math.min(Math.max(Number(url.searchParams.get("limit")) || 50, 1), 500);
  const after = Number(url.searchParams.get("after")) || undefined;
  const items = listItems(runtime.db, customer.id, { limit, afterId: after });
  return json({ items, next: items.length === limit ? items.at(-1)?.id : null });
});

/** POST /api/v1/items creates one item (a write). */
export const POST = protect({ body: itemCreateSchema }, ({ body, customer, runtime }) => {
  const [item] = insertItems(runtime.db, customer.id, [body], runtime.clock.now());
  return json({ item }, { status: 201 });
});
