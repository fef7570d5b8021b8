import { planDryRun } from "@/lib/admin/dry-run";
import { parseQuery } from "@/lib/http/body";
import { notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { dryRunAnswerSchema } from "@/lib/schemas/dry-run-answer.schema";
import { parseId } from "@/lib/schemas/params.schema";
import { dryRunQuerySchema } from "@/lib/schemas/usage.schema";

type Params = { id: string };

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/plans/:id/dry-run?from=&to= reports what each of the plan's dry-run limits would
 * have refused over the range (the last 24 h by default): refusals, their share of the plan's
 * decisions (since it was added, if that was within the range), and the customers refused.
 */
export const GET = withOperator<Params>(async ({ request, params, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Plan not found");
  const query = parseQuery(request, dryRunQuerySchema);
  if (!query.ok) return query.response;
  return respondAs(
    dryRunAnswerSchema,
    await planDryRun(runtime, runtime.live, id, query.data),
    (report) => report,
  );
});
