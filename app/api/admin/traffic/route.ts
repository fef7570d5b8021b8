import { json, parseId } from "@/lib/http";
import { withOperator } from "@/lib/route/operator";

/**
 * GET /api/admin/traffic?seconds=&customerId= returns allowed and denied decisions per second
 * for the last `seconds` (at most 300), and per-customer totals over the same span.
 */
export const GET = withOperator(({ request, runtime }) => {
  const url = new URL(request.url);
  const seconds = Math.min(Math.max(Number(url.searchParams.get("seconds")) || 300, 1), 300);
  const customerId = parseId(url.searchParams.get("customerId") ?? undefined) ?? undefined;
  const now = runtime.clock.now();
  const points = runtime.traffic.points(now, seconds, { customerId });
  const names = runtime.policy.snapshot.byId;
  const totals = [...runtime.traffic.totals(now, seconds)]
    .filter(([id]) => customerId === undefined || id === customerId)
    .map(([id, t]) => ({ customerId: id, name: names.get(id)?.name ?? `#${id}`, ...t }))
    .sort((a, b) => b.denied - a.denied || b.allowed - a.allowed);
  return json({ now, seconds, points, totals });
});
