import { audit } from "@/lib/admin/audit";
import { resetBuckets } from "@/lib/admin/customers";
import { withOperator } from "@/lib/auth/guard";
import { json, notFound, parseId } from "@/lib/http";

/** POST /api/admin/customers/:id/reset forgets the customer's buckets: they start full again. */
export const POST = withOperator<{ id: string }>(({ params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null || !runtime.policy.snapshot.byId.has(id)) return notFound("Customer not found");
  const deleted = resetBuckets(runtime, id);
  audit(runtime.db, {
    actor,
    action: "customer.reset-buckets",
    entityType: "customer",
    entityId: id,
    before: { buckets: deleted },
    after: { buckets: 0 },
    at: runtime.clock.now(),
  });
  return json({ deleted });
});
