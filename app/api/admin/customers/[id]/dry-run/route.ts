import { customerDryRun } from "@/lib/admin/dry-run";
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
 * GET /api/admin/customers/:id/dry-run?from=&to= reports what the dry-run limits tried on the
 * customer (its override's, or its plan's) would have refused of its traffic over the range
 * (since it was added, if that was within the range).
 */
export const GET = withOperator<Params>(async ({ request, params, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Customer not found");
  const query = parseQuery(request, dryRunQuerySchema);
  if (!query.ok) return query.response;
  return respondAs(
    dryRunAnswerSchema,
    await customerDryRun(runtime, runtime.live, id, query.data),
    (report) => report,
  );
});
