import { getPlan } from "@/db/queries/plans";
import { deletePlan, updatePlan } from "@/lib/admin/plans";
import { parseBody } from "@/lib/http/body";
import { answer, notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respond, respondAs } from "@/lib/next/respond";
import { parseId } from "@/lib/schemas/params.schema";
import { planUpdateSchema } from "@/lib/schemas/plan.schema";
import { planAnswerSchema } from "@/lib/schemas/plan-answer.schema";

type Params = { id: string };

/** GET /api/admin/plans/:id returns a plan with its limits. */
export const GET = withOperator<Params>(({ params, runtime }) => {
  const id = parseId(params.id);
  const plan = id === null ? undefined : getPlan(runtime.db, id);
  return plan ? answer(planAnswerSchema, { plan }) : notFound("Plan not found");
});

/** PATCH /api/admin/plans/:id edits a plan; given limits replace all of its limits. */
export const PATCH = withOperator<Params>(async ({ request, params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Plan not found");
  const parsed = await parseBody(request, planUpdateSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(planAnswerSchema, updatePlan(runtime, actor, id, parsed.data), (plan) => ({
    plan,
  }));
});

/** DELETE /api/admin/plans/:id deletes a plan that has no customers. */
export const DELETE = withOperator<Params>(({ params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Plan not found");
  return respond(deletePlan(runtime, actor, id), () => null, 204);
});
