import { parseQuery } from "@/lib/http/body";
import { answer } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { trafficQuerySchema } from "@/lib/schemas/query.schema";
import { trafficAnswerSchema } from "@/lib/schemas/traffic-answer.schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/traffic?seconds=&customerId=&operation= returns allowed and denied decisions per
 * second for the last `seconds` (1 to 300, default 300), and per-customer totals over the same
 * span. With Redis they are the whole fleet's (`scope: "fleet"`, a second behind the present);
 * otherwise, or while Redis cannot be read, this instance's (`scope: "instance"`).
 */
export const GET = withOperator(async ({ request, runtime }) => {
  const query = parseQuery(request, trafficQuerySchema);
  if (!query.ok) return query.response;
  const { seconds, customerId, operation } = query.data;
  const now = runtime.clock.now();
  const live = runtime.live;
  const [view, sums] = await Promise.all([
    live.points(now, seconds, { customerId, operation }),
    live.totals(now, seconds),
  ]);
  const names = runtime.policy.snapshot.byId;
  const totals = [...sums.totals]
    .filter(([id]) => customerId === undefined || id === customerId)
    .map(([id, t]) => ({ customerId: id, name: names.get(id)?.name ?? `#${id}`, ...t }))
    .sort((a, b) => b.denied - a.denied || b.allowed - a.allowed);
  const scope = view.scope === "fleet" && sums.scope === "fleet" ? "fleet" : "instance";
  return answer(trafficAnswerSchema, { now, seconds, scope, points: view.points, totals });
});
