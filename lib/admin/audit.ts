import type { Tx } from "@/db/client";
import { appendAudit } from "@/db/queries/audit";
import type { AuditAction } from "@/lib/vocabulary";

/** AuditInput describes one operator change. */
export interface AuditInput {
  actor: string;
  action: AuditAction;
  entityType: string;
  entityId: number | string | null;
  before: unknown;
  after: unknown;
  at: number;
}

/** audit records a change in the same transaction as the change itself. */
export function audit(tx: Tx, input: AuditInput): void {
  appendAudit(tx, {
    at: input.at,
    actor: input.actor,
    action: input.action,
    entityType: input.entityType,
    entityId: input.entityId === null ? null : String(input.entityId),
    before: input.before ?? null,
    after: input.after ?? null,
  });
}
