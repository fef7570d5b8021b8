import { promoteDryRun } from "@/lib/admin/plans";
import { parseBody } from "@/lib/http/body";
import { notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { parseId } from "@/lib/schemas/params.schema";
import { planPromotedAnswerSchema } from "@/lib/schemas/plan-answer.schema";
import { promoteSchema } from "@/lib/schemas/usage.schema";

type Params = { id: string };

/**
 * POST /api/admin/plans/:id/dry-run/promote `{operation?}` makes the plan's dry-run limits (of
 * one operation, or all) enforced, audited; the next request obeys them. 409 when there are none.
 */
export const POST = withOperator<Params>(async ({ request, params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Plan not found");
  const parsed = await parseBody(request, promoteSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    planPromotedAnswerSchema,
    promoteDryRun(runtime, actor, id, parsed.data.operation),
    (value) => value,
  );
});
