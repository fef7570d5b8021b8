import { insertItems } from "@/db/queries/items";
import { json } from "@/lib/http/response";
import { demoRoute } from "@/lib/next/demo";
import { protect } from "@/lib/next/protect";
import { itemBulkCreateSchema } from "@/lib/schemas/item.schema";

/** POST /api/v1/items/bulk creates several items in one transaction; it costs one token per item. */
export const POST = demoRoute(
  protect(
    { body: itemBulkCreateSchema, cost: (body) => body.items.length },
    ({ body, customer, runtime }) => {
      const now = runtime.clock.now();
      const items = runtime.db.transaction((tx) => insertItems(tx, customer.id, body.items, now));
      return json({ items }, { status: 201 });
    },
  ),
);
