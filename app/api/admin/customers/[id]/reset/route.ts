import { audit } from "@/lib/admin/audit";
import { resetBuckets } from "@/lib/admin/customers";
import { answer, notFound, problem } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { resetAnswerSchema } from "@/lib/schemas/customer-answer.schema";
import { parseId } from "@/lib/schemas/params.schema";

/** POST /api/admin/customers/:id/reset forgets the customer's buckets: they start full again. */
export const POST = withOperator<{ id: string }>(async ({ params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null || !runtime.policy.snapshot.byId.has(id)) return notFound("Customer not found");
  let deleted: number;
  try {
    deleted = await resetBuckets(runtime, id);
  } catch {
    return problem(503, "Rate limit store unavailable", {
      detail: "The shared rate-limit store cannot be reached; nothing was reset.",
    });
  }
  audit(runtime.db, {
    actor,
    action: "customer.reset-buckets",
    entityType: "customer",
    entityId: id,
    before: { buckets: deleted },
    after: { buckets: 0 },
    at: runtime.clock.now(),
  });
  return answer(resetAnswerSchema, { deleted });
});
