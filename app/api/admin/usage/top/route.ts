import { topCustomerUsage } from "@/lib/admin/usage";
import { parseQuery } from "@/lib/http/body";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { topCustomersQuerySchema } from "@/lib/schemas/usage.schema";
import { topCustomersAnswerSchema } from "@/lib/schemas/usage-answer.schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/usage/top?from=&to=&planId=&operation=&limit= returns the customers refused most
 * and those using most (tokens taken) over the range, `limit` (10) of each.
 */
export const GET = withOperator(({ request, runtime }) => {
  const query = parseQuery(request, topCustomersQuerySchema);
  if (!query.ok) return query.response;
  return respondAs(topCustomersAnswerSchema, topCustomerUsage(runtime, query.data), (top) => top);
});
