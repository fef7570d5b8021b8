import { nearLimitCustomers } from "@/lib/admin/near-limit";
import { parseQuery } from "@/lib/http/body";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { nearLimitAnswerSchema } from "@/lib/schemas/near-limit-answer.schema";
import { nearLimitQuerySchema } from "@/lib/schemas/usage.schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/usage/near-limit?from=&to=&customerId=&planId=&operation=&minShare=&limit=
 * returns the customers whose peak use over the range reached `minShare` (0.8) of one of their
 * limits, and those refused by any limit (at 100%), the nearest first (see docs/usage-analytics.md: "Customers
 * near their limit"). Limits shorter than the rollups' step are measured per second from the
 * live view, over the part of the range it holds.
 */
export const GET = withOperator(async ({ request, runtime }) => {
  const query = parseQuery(request, nearLimitQuerySchema);
  if (!query.ok) return query.response;
  return respondAs(
    nearLimitAnswerSchema,
    await nearLimitCustomers(runtime, runtime.live, query.data),
    (near) => near,
  );
});
