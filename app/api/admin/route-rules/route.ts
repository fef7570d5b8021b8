import { routeRulesOf, setRouteRules } from "@/lib/admin/route-rules";
import { parseBody } from "@/lib/http/body";
import { answer } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { routeRulesSchema } from "@/lib/schemas/route-rule.schema";
import { routeRulesAnswerSchema } from "@/lib/schemas/route-rule-answer.schema";

/** GET /api/admin/route-rules lists the gateway's route rules in order, and the classes a rule may name. */
export const GET = withOperator(({ runtime }) =>
  answer(routeRulesAnswerSchema, routeRulesOf(runtime)),
);

/** PUT /api/admin/route-rules replaces the whole ordered list of route rules. */
export const PUT = withOperator(async ({ request, actor, runtime }) => {
  const parsed = await parseBody(request, routeRulesSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    routeRulesAnswerSchema,
    setRouteRules(runtime, actor, parsed.data),
    (value) => value,
  );
});
