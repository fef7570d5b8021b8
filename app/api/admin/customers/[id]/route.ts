import { getCustomer } from "@/db/queries/customers";
import { deleteCustomer, overridesOf, updateCustomer } from "@/lib/admin/customers";
import { parseBody } from "@/lib/http/body";
import { json, notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respond } from "@/lib/next/respond";
import { customerUpdateSchema } from "@/lib/schemas/customer.schema";
import { parseId } from "@/lib/schemas/params.schema";

type Params = { id: string };

/** GET /api/admin/customers/:id returns a customer with its overrides. */
export const GET = withOperator<Params>(({ params, runtime }) => {
  const id = parseId(params.id);
  const customer = id === null ? undefined : getCustomer(runtime.db, id);
  if (!customer) return notFound("Customer not found");
  return json({ customer, overrides: overridesOf(runtime.db, customer.id) });
});

/** PATCH /api/admin/customers/:id changes name, plan or status (suspend, reactivate). */
export const PATCH = withOperator<Params>(async ({ request, params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Customer not found");
  const parsed = await parseBody(request, customerUpdateSchema);
  if (!parsed.ok) return parsed.response;
  return respond(updateCustomer(runtime, actor, id, parsed.data), (customer) => ({ customer }));
});

/** DELETE /api/admin/customers/:id deletes a customer with its items and overrides. */
export const DELETE = withOperator<Params>(({ params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Customer not found");
  return respond(deleteCustomer(runtime, actor, id), () => null, 204);
});
