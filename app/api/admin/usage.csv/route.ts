import { usageCsv } from "@/lib/admin/usage-csv";
import { parseQuery } from "@/lib/http/body";
import { withOperator } from "@/lib/next/operator";
import { respond } from "@/lib/next/respond";
import { usageFiltersSchema } from "@/lib/schemas/usage.schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/usage.csv?from=&to=&customerId=&planId=&operation= downloads the rollups as CSV:
 * one row per UTC day, customer, plan and operation (the last 30 days by default, 93 at most).
 */
export const GET = withOperator(({ request, runtime }) => {
  const query = parseQuery(request, usageFiltersSchema);
  if (!query.ok) return query.response;
  const csv = usageCsv(runtime, query.data);
  if (!csv.ok) return respond(csv, () => null);
  return new Response(csv.value.body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csv.value.filename}"`,
      "Cache-Control": "no-store",
    },
  });
});
