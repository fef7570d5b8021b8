import { listAudit } from "@/db/queries/audit";
import { json, parseId } from "@/lib/http";
import { withOperator } from "@/lib/route/operator";

/** GET /api/admin/audit?limit=&before= lists operator changes, newest first. */
export const GET = withOperator(({ request, runtime }) => {
  const url = new URL(request.url);
  const limit = Math.min(Math.max(Number(url.searchParams.get("limit")) || 50, 1), 200);
  const before = parseId(url.searchParams.get("before") ?? undefined) ?? undefined;
  const entries = listAudit(runtime.db, { limit, beforeId: before });
  return json({ entries, next: entries.length === limit ? (entries.at(-1)?.id ?? null) : null });
});
