import { plansUsage } from "@/lib/admin/usage";
import { parseQuery } from "@/lib/http/body";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { usageFiltersSchema } from "@/lib/schemas/usage.schema";
import { plansUsageAnswerSchema } from "@/lib/schemas/usage-answer.schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/usage/plans?from=&to=&planId=&operation= returns each plan's aggregates over the
 * range: customers now, customers active and refused in the range, decisions and tokens.
 */
export const GET = withOperator(({ request, runtime }) => {
  const query = parseQuery(request, usageFiltersSchema);
  if (!query.ok) return query.response;
  return respondAs(plansUsageAnswerSchema, plansUsage(runtime, query.data), (plans) => plans);
});
