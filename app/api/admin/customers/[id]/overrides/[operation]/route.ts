import { clearOverride, setOverride } from "@/lib/admin/customers";
import { parseBody } from "@/lib/http/body";
import { notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { overrideSchema } from "@/lib/schemas/customer.schema";
import { overridesAnswerSchema } from "@/lib/schemas/customer-answer.schema";
import { operationSchema } from "@/lib/schemas/limit.schema";
import { parseId } from "@/lib/schemas/params.schema";

type Params = { id: string; operation: string };

function target(params: Params) {
  const id = parseId(params.id);
  const operation = operationSchema.safeParse(params.operation);
  return id === null || !operation.success ? null : { id, operation: operation.data };
}

/** PUT /api/admin/customers/:id/overrides/:operation sets the customer's limits for reads or writes. */
export const PUT = withOperator<Params>(async ({ request, params, actor, runtime }) => {
  const t = target(params);
  if (!t) return notFound();
  const parsed = await parseBody(request, overrideSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    overridesAnswerSchema,
    setOverride(runtime, actor, t.id, t.operation, parsed.data),
    (overrides) => ({
      overrides,
    }),
  );
});

/** DELETE /api/admin/customers/:id/overrides/:operation clears it: the plan applies again. */
export const DELETE = withOperator<Params>(({ params, actor, runtime }) => {
  const t = target(params);
  if (!t) return notFound();
  return respondAs(
    overridesAnswerSchema,
    clearOverride(runtime, actor, t.id, t.operation),
    (overrides) => ({ overrides }),
  );
});
