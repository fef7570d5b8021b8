import { bucketHistory, inspectCustomer } from "@/lib/admin/inspect";
import { parseQuery } from "@/lib/http/body";
import { answer, notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { inspectAnswerSchema } from "@/lib/schemas/inspect-answer.schema";
import { parseId } from "@/lib/schemas/params.schema";
import { inspectQuerySchema } from "@/lib/schemas/query.schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/customers/:id/inspect?history= peeks each bucket of the customer, per operation:
 * limit, remaining, capacity, retry-after, time to full and execution time. Nothing is consumed
 * or created. With `history` (seconds, 1 to 300) it adds each bucket's level over that span,
 * replayed from the customer's recorded decisions under the current limits. `quotas` lists each
 * quota of every class: used, remaining, granted and the current period (peeked too).
 */
export const GET = withOperator<{ id: string }>(async ({ request, params, runtime }) => {
  const query = parseQuery(request, inspectQuerySchema);
  if (!query.ok) return query.response;
  const id = parseId(params.id);
  const customer = id === null ? undefined : runtime.policy.snapshot.byId.get(id);
  if (!customer) return notFound("Customer not found");
  const now = runtime.clock.now();
  const { operations, quotas } = await inspectCustomer(runtime, customer);
  const seconds = query.data.history;
  return answer(inspectAnswerSchema, {
    customerId: customer.id,
    now,
    store: runtime.decisions.status(),
    operations,
    quotas,
    ...(seconds === undefined
      ? {}
      : {
          history: await bucketHistory(runtime.live, customer.id, operations, now, seconds),
        }),
  });
});
