import { nearLimitCustomers } from "@/lib/admin/near-limit";
import { respond } from "@/lib/admin/respond";
import { parseQuery } from "@/lib/http";
import { withOperator } from "@/lib/route/operator";
import { nearLimitQuerySchema } from "@/lib/schemas/usage.schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/usage/near-limit?from=&to=&customerId=&planId=&operation=&minShare=&limit=
 * returns the customers whose peak use over the range reached `minShare` (0.8) of one of their
 * limits, the nearest first (see README: "Customers near their limit").
 */
export const GET = withOperator(({ request, runtime }) => {
  const query = parseQuery(request, nearLimitQuerySchema);
  if (!query.ok) return query.response;
  return respond(nearLimitCustomers(runtime, query.data), (near) => near);
});
