import { promoteOverride } from "@/lib/admin/customers";
import { notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { overridesPromotedAnswerSchema } from "@/lib/schemas/customer-answer.schema";
import { operationSchema } from "@/lib/schemas/limit.schema";
import { parseId } from "@/lib/schemas/params.schema";

type Params = { id: string; operation: string };

/**
 * POST /api/admin/customers/:id/overrides/:operation/promote makes the dry-run limits of the
 * customer's override for reads or writes enforced, audited. 409 when there are none.
 */
export const POST = withOperator<Params>(({ params, actor, runtime }) => {
  const id = parseId(params.id);
  const operation = operationSchema.safeParse(params.operation);
  if (id === null || !operation.success) return notFound();
  return respondAs(
    overridesPromotedAnswerSchema,
    promoteOverride(runtime, actor, id, operation.data),
    (value) => value,
  );
});
