import { inspect } from "@/lib/admin/inspect";
import { json, notFound, parseId } from "@/lib/http";
import { withOperator } from "@/lib/route/operator";

/**
 * GET /api/admin/customers/:id/inspect peeks each bucket of the customer, per operation: limit,
 * remaining, capacity, retry-after and execution time. Nothing is consumed or created.
 */
export const GET = withOperator<{ id: string }>(async ({ params, runtime }) => {
  const id = parseId(params.id);
  const customer = id === null ? undefined : runtime.policy.snapshot.byId.get(id);
  if (!customer) return notFound("Customer not found");
  return json({
    customerId: customer.id,
    now: runtime.clock.now(),
    store: runtime.decisions.status(),
    operations: await inspect(runtime, customer),
  });
});
