import { deleteItem, getItem, updateItem } from "@/db/queries/items";
import { json, notFound } from "@/lib/http/response";
import { demoRoute } from "@/lib/next/demo";
import { protect } from "@/lib/next/protect";
import { itemParamsSchema, itemUpdateSchema } from "@/lib/schemas/item.schema";

/** GET /api/v1/items/:id returns one of the caller's items. */
export const GET = demoRoute(
  protect({ params: itemParamsSchema }, ({ params, customer, runtime }) => {
    const item = getItem(runtime.db, customer.id, params.id);
    return item ? json({ item }) : notFound("Item not found");
  }),
);

/** PATCH /api/v1/items/:id changes one of the caller's items. */
export const PATCH = demoRoute(
  protect(
    { params: itemParamsSchema, body: itemUpdateSchema },
    ({ params, body, customer, runtime }) => {
      const item = updateItem(runtime.db, customer.id, params.id, body, runtime.clock.now());
      return item ? json({ item }) : notFound("Item not found");
    },
  ),
);

/** DELETE /api/v1/items/:id deletes one of the caller's items. */
export const DELETE = demoRoute(
  protect({ params: itemParamsSchema }, ({ params, customer, runtime }) => {
    const deleted = deleteItem(runtime.db, customer.id, params.id);
    return deleted ? new Response(null, { status: 204 }) : notFound("Item not found");
  }),
);
