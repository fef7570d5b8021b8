import { listCustomerPage } from "@/lib/admin/customer-list";
import { createCustomer } from "@/lib/admin/customers";
import { parseBody, parseQuery } from "@/lib/http/body";
import { answer } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { customerCreateSchema } from "@/lib/schemas/customer.schema";
import {
  customerKeyAnswerSchema,
  customersAnswerSchema,
} from "@/lib/schemas/customer-answer.schema";
import { customerListQuerySchema } from "@/lib/schemas/customer-list.schema";

/**
 * GET /api/admin/customers?q=&plan=&status=&sort=&after=&before=&limit= lists one page of
 * customers with their traffic over the last 5 minutes (the whole fleet's with Redis), the
 * cursors around it and the total.
 */
export const GET = withOperator(async ({ request, runtime }) => {
  const query = parseQuery(request, customerListQuerySchema);
  if (!query.ok) return query.response;
  const { db, clock } = runtime;
  return answer(
    customersAnswerSchema,
    await listCustomerPage({ db, clock, live: runtime.live }, query.data),
  );
});

/** POST /api/admin/customers creates a customer; the response shows its API key, once. */
export const POST = withOperator(async ({ request, actor, runtime }) => {
  const parsed = await parseBody(request, customerCreateSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    customerKeyAnswerSchema,
    createCustomer(runtime, actor, parsed.data),
    (v) => v,
    201,
  );
});
