import { listItems } from "@/db/queries/items";
import { parseQuery } from "@/lib/http/body";
import { json, notFound } from "@/lib/http/response";
import { guarded } from "@/lib/next/guarded";
import { getRuntime } from "@/lib/runtime";
import { benchItemsQuerySchema } from "@/lib/schemas/query.schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/bench/items?customer=<id>&limit=&after= is the unprotected twin of GET /api/v1/items,
 * for `npm run bench:http` only: the same query and the same JSON, with no key and no limiter, so
 * the benchmark can measure what protection costs. It answers 404 unless RATEKEEPER_BENCH=1.
 */
export const GET = guarded((request: Request): Response => {
  if (process.env.RATEKEEPER_BENCH !== "1") return notFound();
  const query = parseQuery(request, benchItemsQuerySchema);
  if (!query.ok) return query.response;
  const { customer, limit, after } = query.data;
  const items = listItems(getRuntime().db, customer, { limit, afterId: after });
  return json({ items, next: items.length === limit ? items.at(-1)?.id : null });
});
