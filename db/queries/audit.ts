import { desc, lt } from "drizzle-orm";
import type { Tx } from "../client";
import { auditLog } from "../schema";

/** AuditEntry is one recorded operator change. */
export type AuditEntry = typeof auditLog.$inferSelect;

/** appendAudit records an operator change; call it in the change's own transaction. */
export function appendAudit(tx: Tx, entry: Omit<AuditEntry, "id">): void {
  tx.insert(auditLog).values(entry).run();
}

/** listAudit returns the newest entries first, `limit` at most, older than `beforeId` if given. */
export function listAudit(tx: Tx, options: { limit: number; beforeId?: number }): AuditEntry[] {
  const query = tx.select().from(auditLog);
  const filtered = options.beforeId ? query.where(lt(auditLog.id, options.beforeId)) : query;
  return filtered.orderBy(desc(auditLog.id)).limit(options.limit).all();
}
