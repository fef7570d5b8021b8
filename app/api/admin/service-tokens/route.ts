import { respond } from "@/lib/admin/respond";
import { createServiceToken, serviceTokensOf } from "@/lib/admin/service-tokens";
import { json, parseBody } from "@/lib/http";
import { withOperator } from "@/lib/route/operator";
import { serviceTokenCreateSchema } from "@/lib/schemas/service-token.schema";

/** GET /api/admin/service-tokens lists the service tokens (prefix, scopes, last use; never the token). */
export const GET = withOperator(({ runtime }) => json({ serviceTokens: serviceTokensOf(runtime) }));

/** POST /api/admin/service-tokens creates a service token; the response carries the token, once. */
export const POST = withOperator(async ({ request, actor, runtime }) => {
  const parsed = await parseBody(request, serviceTokenCreateSchema);
  if (!parsed.ok) return parsed.response;
  return respond(createServiceToken(runtime, actor, parsed.data), (value) => value, 201);
});
