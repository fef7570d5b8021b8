import { revokeServiceToken } from "@/lib/admin/service-tokens";
import { notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respond } from "@/lib/next/respond";
import { parseId } from "@/lib/schemas/params.schema";

/** DELETE /api/admin/service-tokens/:id revokes a service token: it is refused from the next request on. */
export const DELETE = withOperator<{ id: string }>(({ params, actor, runtime }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("Service token not found");
  return respond(revokeServiceToken(runtime, actor, id), () => null, 204);
});
