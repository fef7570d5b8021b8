import { json, parseQuery } from "@/lib/http";
import { withOperator } from "@/lib/route/operator";
import { trafficQuerySchema } from "@/lib/schemas/query.schema";

/**
 * GET /api/admin/traffic?seconds=&customerId= returns allowed and denied decisions per second
 * for the last `seconds` (1 to 300, default 300), and per-customer totals over the same span.
 */
export const GET = withOperator(({ request, runtime }) => {
  const query = parseQuery(request, trafficQuerySchema);
  if (!query.ok) return query.response;
  const { seconds, customerId } = query.data;
  const now = runtime.clock.now();
  const points = runtime.traffic.points(now, seconds, { customerId });
  const names = runtime.policy.snapshot.byId;
  const totals = [...runtime.traffic.totals(now, seconds)]
    .filter(([id]) => customerId === undefined || id === customerId)
    .map(([id, t]) => ({ customerId: id, name: names.get(id)?.name ?? `#${id}`, ...t }))
    .sort((a, b) => b.denied - a.denied || b.allowed - a.allowed);
  return json({ now, seconds, points, totals });
});
