import type { Tx } from "@/db/client";
import { countAudit, pageAudit } from "@/db/queries/audit";
import type { AuditAnswer } from "@/lib/schemas/audit-answer.schema";
import type { AuditListQuery } from "@/lib/schemas/audit-list.schema";
import { encodeCursor } from "@/lib/schemas/list.schema";

/** listAuditPage answers one page of the audit log for a validated query. */
export function listAuditPage(tx: Tx, query: AuditListQuery): AuditAnswer {
  const filter = {
    action: query.action,
    actor: query.actor,
    customerId: query.customer,
    from: query.from,
    to: query.to,
  };
  const page = pageAudit(tx, filter, query, query.limit);
  return {
    entries: page.rows,
    next: page.nextKey ? encodeCursor(page.nextKey) : null,
    prev: page.prevKey ? encodeCursor(page.prevKey) : null,
    total: countAudit(tx, filter),
  };
}
