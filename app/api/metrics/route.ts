import { guarded } from "@/lib/next/guarded";
import { getRuntime } from "@/lib/runtime";

// Counters change on every request: never prerender or cache this route.
export const dynamic = "force-dynamic";

/**
 * GET /api/metrics returns the process's Prometheus series (decisions by plan, operation and
 * outcome; buckets held; store errors) in the text exposition format.
 *
 * It has no authentication, as is usual for a scrape target: firewall it (or keep it off the
 * public listener) so only the Prometheus server can reach it. Plan slugs are its only labels.
 */
export const GET = guarded(async () => {
  const { registry } = getRuntime().metrics;
  return new Response(await registry.metrics(), {
    headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
  });
});
