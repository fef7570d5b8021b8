import { listCustomers } from "@/db/queries/customers";
import { createCustomer } from "@/lib/admin/customers";
import { respond } from "@/lib/admin/respond";
import { json, parseBody } from "@/lib/http";
import { withOperator } from "@/lib/route/operator";
import { customerCreateSchema } from "@/lib/schemas/customer.schema";

/**
 * GET /api/admin/customers lists customers with their traffic over the last 5 minutes (the
 * whole fleet's with Redis).
 */
export const GET = withOperator(async ({ runtime }) => {
  const { totals } = await runtime.usage.live.totals(runtime.clock.now(), 300);
  const customers = listCustomers(runtime.db).map((c) => ({
    ...c,
    traffic: totals.get(c.id) ?? { allowed: 0, denied: 0 },
  }));
  return json({ customers });
});

/** POST /api/admin/customers creates a customer; the response shows its API key, once. */
export const POST = withOperator(async ({ request, actor, runtime }) => {
  const parsed = await parseBody(request, customerCreateSchema);
  if (!parsed.ok) return parsed.response;
  return respond(createCustomer(runtime, actor, parsed.data), (value) => value, 201);
});
