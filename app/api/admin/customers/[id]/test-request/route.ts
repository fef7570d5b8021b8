import { testRequest } from "@/lib/admin/inspect";
import { parseBody } from "@/lib/http/body";
import { answer, invalid, notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { identifyById, statusOf } from "@/lib/policy/decide";
import { testRequestSchema } from "@/lib/schemas/customer.schema";
import { testRequestAnswerSchema } from "@/lib/schemas/inspect-answer.schema";
import { unknownClassMessage } from "@/lib/schemas/operation-class.schema";
import { parseId } from "@/lib/schemas/params.schema";

/**
 * POST /api/admin/customers/:id/test-request makes one real decision for the customer, with a
 * chosen operation and cost, through the same decision path as a protected request (tokens are
 * consumed), and answers the status that request would have got.
 */
export const POST = withOperator<{ id: string }>(async ({ request, params, runtime }) => {
  const id = parseId(params.id);
  if (id === null || !runtime.policy.snapshot.byId.has(id)) return notFound("Customer not found");
  const parsed = await parseBody(request, testRequestSchema);
  if (!parsed.ok) return parsed.response;
  const { classes } = runtime.policy.snapshot;
  if (!classes.has(parsed.data.operation)) {
    return invalid({ operation: [unknownClassMessage(parsed.data.operation, classes)] });
  }
  const identity = identifyById(runtime.policy.snapshot, id);
  if (!identity.ok) {
    return answer(testRequestAnswerSchema, {
      status: statusOf(identity.reason),
      reason: identity.reason,
      decision: null,
    });
  }
  const { operation, cost } = parsed.data;
  const { verdict, view } = await testRequest(runtime, identity.customer, operation, cost);
  return answer(testRequestAnswerSchema, {
    status: statusOf(verdict.reason),
    reason: verdict.reason,
    decision: view,
    headers: verdict.headers,
  });
});
