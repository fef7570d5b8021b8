import { countCustomersByPlan, listPlans } from "@/db/queries/plans";
import { createPlan } from "@/lib/admin/plans";
import { parseBody } from "@/lib/http/body";
import { answer } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { planCreateSchema } from "@/lib/schemas/plan.schema";
import { planAnswerSchema, plansAnswerSchema } from "@/lib/schemas/plan-answer.schema";

/** GET /api/admin/plans lists plans with their limits and customer counts. */
export const GET = withOperator(({ runtime }) => {
  const counts = countCustomersByPlan(runtime.db);
  const plans = listPlans(runtime.db).map((p) => ({ ...p, customerCount: counts.get(p.id) ?? 0 }));
  return answer(plansAnswerSchema, { plans });
});

/** POST /api/admin/plans creates a plan. */
export const POST = withOperator(async ({ request, actor, runtime }) => {
  const parsed = await parseBody(request, planCreateSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    planAnswerSchema,
    createPlan(runtime, actor, parsed.data),
    (plan) => ({ plan }),
    201,
  );
});
