import type { Tx } from "@/db/client";
import { type AuditListEntry, countAudit, pageAudit } from "@/db/queries/audit";
import type { AuditListQuery } from "@/lib/schemas/audit-list.schema";
import { encodeCursor, type PageInfo } from "@/lib/schemas/list.schema";

/** AuditPage is one page of the audit log, with its cursors and the total matched. */
export interface AuditPage extends PageInfo {
  entries: AuditListEntry[];
}

/** listAuditPage answers one page of the audit log for a validated query. */
export function listAuditPage(tx: Tx, query: AuditListQuery): AuditPage {
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
