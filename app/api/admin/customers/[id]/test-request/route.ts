import { testRequest } from "@/lib/admin/inspect";
import { withOperator } from "@/lib/auth/guard";
import { json, notFound, parseBody, parseId } from "@/lib/http";
import { testRequestSchema } from "@/lib/schemas/customer.schema";

/**
 * POST /api/admin/customers/:id/test-request makes one real decision for the customer, with a
 * chosen operation and cost, exactly as a protected request would (tokens are consumed).
 */
export const POST = withOperator<{ id: string }>(async ({ request, params, runtime }) => {
  const id = parseId(params.id);
  const customer = id === null ? undefined : runtime.policy.snapshot.byId.get(id);
  if (!customer) return notFound("Customer not found");
  const parsed = await parseBody(request, testRequestSchema);
  if (!parsed.ok) return parsed.response;
  const decision = await testRequest(runtime, customer, parsed.data.operation, parsed.data.cost);
  const status = decision.store === "unavailable" ? 503 : decision.allowed ? 200 : 429;
  return json({ status, decision });
});
