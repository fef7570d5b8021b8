import { rotateKey } from "@/lib/admin/customers";
import { respond } from "@/lib/admin/respond";
import { withOperator } from "@/lib/auth/guard";
import { notFound, parseId } from "@/lib/http";

/** POST /api/admin/customers/:id/rotate-key issues a new API key (shown once); the old one stops working. */
export const POST = withOperator<{ id: string }>(({ params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Customer not found");
  return respond(rotateKey(runtime, actor, id), (value) => value);
});
