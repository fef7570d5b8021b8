import { getCustomer } from "@/db/queries/customers";
import { deleteCustomer, overridesOf, updateCustomer } from "@/lib/admin/customers";
import { parseBody } from "@/lib/http/body";
import { answer, notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respond, respondAs } from "@/lib/next/respond";
import { customerUpdateSchema } from "@/lib/schemas/customer.schema";
import {
  customerAnswerSchema,
  customerUpdatedAnswerSchema,
} from "@/lib/schemas/customer-answer.schema";
import { parseId } from "@/lib/schemas/params.schema";

type Params = { id: string };

/** GET /api/admin/customers/:id returns a customer with its overrides. */
export const GET = withOperator<Params>(({ params, runtime }) => {
  const id = parseId(params.id);
  const customer = id === null ? undefined : getCustomer(runtime.db, id);
  if (!customer) return notFound("Customer not found");
  return answer(customerAnswerSchema, {
    customer,
    overrides: overridesOf(runtime.db, customer.id),
  });
});

/** PATCH /api/admin/customers/:id changes name, plan or status (suspend, reactivate). */
export const PATCH = withOperator<Params>(async ({ request, params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Customer not found");
  const parsed = await parseBody(request, customerUpdateSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    customerUpdatedAnswerSchema,
    updateCustomer(runtime, actor, id, parsed.data),
    (customer) => ({
      customer,
    }),
  );
});

/** DELETE /api/admin/customers/:id deletes a customer with its items and overrides. */
export const DELETE = withOperator<Params>(({ params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Customer not found");
  return respond(deleteCustomer(runtime, actor, id), () => null, 204);
});
