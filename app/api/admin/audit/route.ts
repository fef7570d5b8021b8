import { listAudit } from "@/db/queries/audit";
import { json, parseQuery } from "@/lib/http";
import { withOperator } from "@/lib/route/operator";
import { auditQuerySchema } from "@/lib/schemas/query.schema";

/**
 * GET /api/admin/audit?limit=&before= lists operator changes, newest first: `limit` from 1 to
 * 200 (default 50), older than the entry id `before`.
 */
export const GET = withOperator(({ request, runtime }) => {
  const query = parseQuery(request, auditQuerySchema);
  if (!query.ok) return query.response;
  const { limit, before } = query.data;
  const entries = listAudit(runtime.db, { limit, beforeId: before });
  return json({ entries, next: entries.length === limit ? (entries.at(-1)?.id ?? null) : null });
});
