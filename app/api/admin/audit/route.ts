import { listAuditPage } from "@/lib/admin/audit-list";
import { parseQuery } from "@/lib/http/body";
import { answer } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { auditAnswerSchema } from "@/lib/schemas/audit-answer.schema";
import { auditListQuerySchema } from "@/lib/schemas/audit-list.schema";

/**
 * GET /api/admin/audit?action=&actor=&customer=&from=&to=&after=&before=&limit= lists one page
 * of operator changes, newest first, with the cursors around it and the total matched.
 */
export const GET = withOperator(({ request, runtime }) => {
  const query = parseQuery(request, auditListQuerySchema);
  if (!query.ok) return query.response;
  return answer(auditAnswerSchema, listAuditPage(runtime.db, query.data));
});
