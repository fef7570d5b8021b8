import { deleteItem, getItem, updateItem } from "@/db/queries/items";
import { json, notFound, parseId } from "@/lib/http";
import { protect } from "@/lib/route/protect";
import { itemUpdateSchema } from "@/lib/schemas/item.schema";

type Params = { id: string };

/** GET /api/v1/items/:id returns one of the caller's items. */
export const GET = protect<undefined, Params>({}, ({ params, customer, runtime }) => {
  const id = parseId(params.id);
  const item = id === null ? undefined : getItem(runtime.db, customer.id, id);
  return item ? json({ item }) : notFound("Item not found");
});

/** PATCH /api/v1/items/:id changes one of the caller's items. */
export const PATCH = protect<typeof itemUpdateSchema, Params>(
  { body: itemUpdateSchema },
  ({ params, body, customer, runtime }) => {
    const id = parseId(params.id);
    const item =
      id === null ? undefined : updateItem(runtime.db, customer.id, id, body, runtime.clock.now());
    return item ? json({ item }) : notFound("Item not found");
  },
);

/** DELETE /api/v1/items/:id deletes one of the caller's items. */
export const DELETE = protect<undefined, Params>({}, ({ params, customer, runtime }) => {
  const id = parseId(params.id);
  const deleted = id !== null && deleteItem(runtime.db, customer.id, id);
  return deleted ? new Response(null, { status: 204 }) : notFound("Item not found");
});
