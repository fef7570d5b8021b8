import { testRoute } from "@/lib/admin/route-rules";
import { parseBody } from "@/lib/http/body";
import { answer } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { routeTestSchema } from "@/lib/schemas/route-rule.schema";
import { routeTestAnswerSchema } from "@/lib/schemas/route-rule-answer.schema";

/**
 * POST /api/admin/route-rules/test says which rule in force a request (method, path after /gw)
 * matches, and what it costs: its class and tokens, or unmetered.
 */
export const POST = withOperator(async ({ request, runtime }) => {
  const parsed = await parseBody(request, routeTestSchema);
  if (!parsed.ok) return parsed.response;
  return answer(routeTestAnswerSchema, testRoute(runtime, parsed.data));
});
