import { rotateKey } from "@/lib/admin/customers";
import { notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { customerKeyAnswerSchema } from "@/lib/schemas/customer-answer.schema";
import { parseId } from "@/lib/schemas/params.schema";

/** POST /api/admin/customers/:id/rotate-key issues a new API key (shown once); the old one stops working. */
export const POST = withOperator<{ id: string }>(({ params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Customer not found");
  return respondAs(customerKeyAnswerSchema, rotateKey(runtime, actor, id), (value) => value);
});
