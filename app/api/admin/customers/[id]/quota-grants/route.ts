import { grantQuota, quotaGrantsOf } from "@/lib/admin/quota-grants";
import { parseBody } from "@/lib/http/body";
import { notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { parseId } from "@/lib/schemas/params.schema";
import { quotaGrantCreateSchema } from "@/lib/schemas/quota-grant.schema";
import {
  quotaGrantAnswerSchema,
  quotaGrantsAnswerSchema,
} from "@/lib/schemas/quota-grant-answer.schema";

type Params = { id: string };

/** GET /api/admin/customers/:id/quota-grants lists the customer's quota grants, newest first. */
export const GET = withOperator<Params>(({ params, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Customer not found");
  return respondAs(quotaGrantsAnswerSchema, quotaGrantsOf(runtime, id), (grants) => ({ grants }));
});

/**
 * POST /api/admin/customers/:id/quota-grants grants the customer extra quota for one period
 * `{ operation, period, timeZone, periodStartMs, extra, note? }` (201 with the grant).
 */
export const POST = withOperator<Params>(async ({ request, params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Customer not found");
  const parsed = await parseBody(request, quotaGrantCreateSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    quotaGrantAnswerSchema,
    grantQuota(runtime, actor, id, parsed.data),
    (grant) => ({ grant }),
    201,
  );
});
