import { z } from "zod";
import { pageInfoSchema } from "./list.schema";

/**
 * snapshotSchema is an audit entry's before or after: the entity as the change stored it (JSON),
 * null when it did not exist. Its shape is each action's own, so it is not constrained here.
 */
const snapshotSchema = z.unknown();

/**
 * auditEntrySchema is one operator change as the log lists it: when (ms), who, what (an
 * AUDIT_ACTIONS word as stored), on which entity (its current name, null once gone; then its
 * last known name, from the newest of its entries that recorded one, or null), and the entity
 * before and after.
 */
export const auditEntrySchema = z
  .object({
    id: z.number().int().positive(),
    at: z.number().int(),
    actor: z.string(),
    action: z.string(),
    entityType: z.string(),
    entityId: z.string().nullable(),
    before: snapshotSchema,
    after: snapshotSchema,
    entityName: z.string().nullable(),
    lastKnownName: z.string().nullable(),
  })
  .strict();

/** AuditEntry is one audit log entry as answered. */
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** auditAnswerSchema is GET /api/admin/audit's answer: one page, newest first, its cursors and total. */
export const auditAnswerSchema = pageInfoSchema
  .extend({ entries: z.array(auditEntrySchema) })
  .strict();

/** AuditAnswer is one page of the audit log. */
export type AuditAnswer = z.infer<typeof auditAnswerSchema>;
