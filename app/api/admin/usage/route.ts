import { usageSeries } from "@/lib/admin/usage";
import { parseQuery } from "@/lib/http/body";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { usageQuerySchema } from "@/lib/schemas/usage.schema";
import { usageAnswerSchema } from "@/lib/schemas/usage-answer.schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/usage?from=&to=&granularity=minute|hour|day&customerId=&planId=&operation=
 * returns the rollups over the range (ms or ISO 8601; the last 24 h by default) as one series per
 * operation, a point per step (1,500 at most), and the totals.
 */
export const GET = withOperator(({ request, runtime }) => {
  const query = parseQuery(request, usageQuerySchema);
  if (!query.ok) return query.response;
  return respondAs(usageAnswerSchema, usageSeries(runtime, query.data), (report) => report);
});
