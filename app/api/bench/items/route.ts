import { listItems } from "@/db/queries/items";
import { json, notFound } from "@/lib/http";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * GET /api/bench/items?customer=<id> is the unprotected twin of GET /api/v1/items, for
 * `npm run bench:http` only: the same query and the same JSON, with no key and no limiter, so
 * the benchmark can measure what protection costs. It answers 404 unless RATEKEEPER_BENCH=1.
 */
export function GET(request: Request): Response {
  if (process.env.RATEKEEPER_BENCH !== "1") return notFound();
  const url = new URL(request.url);
  const customerId = Number(url.searchParams.get("customer"));
  if (!Number.isSafeInteger(customerId) || customerId <= 0) return notFound();
  const limit = Math.min(Math.max(Number(url.searchParams.get("limit")) || 50, 1), 500);
  const after = Number(url.searchParams.get("after")) || undefined;
  const items = listItems(getRuntime().db, customerId, { limit, afterId: after });
  return json({ items, next: items.length === limit ? items.at(-1)?.id : null });
}
