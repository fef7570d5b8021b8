import { z } from "zod";
import { AUDIT_ACTIONS } from "@/lib/vocabulary";
import { checkCursors, pageParams } from "./list.schema";
import { idParam } from "./query.schema";
import { plainText } from "./text.schema";

/** timeParam is an instant in a query string, ISO 8601 with a zone ("2026-11-22T10:00:00Z"), read as ms. */
const timeParam = z.iso
  .datetime({ offset: true, error: "Must be a date and time in ISO 8601, with a zone" })
  .transform((s) => Date.parse(s));

/**
 * auditListQuerySchema is the audit log's query string, for GET /api/admin/audit and the audit
 * page's URL: entries newest first, filtered by `action`, `actor` (exact), `customer` (id), and
 * a time range `from` (inclusive) to `to` (exclusive); `after`/`before` page, `limit` sizes it.
 */
export const auditListQuerySchema = z
  .object({
    action: z.enum(AUDIT_ACTIONS, { error: "Unknown action" }).optional(),
    actor: plainText(
      z
        .string({ error: "Give actor once, as text" })
        .trim()
        .min(1, "Actor must not be blank")
        .max(80, "Actor must be at most 80 characters"),
    ).optional(),
    customer: idParam("customer").optional(),
    from: timeParam.optional(),
    to: timeParam.optional(),
    ...pageParams,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.from !== undefined && v.to !== undefined && v.from >= v.to)
      ctx.addIssue({ code: "custom", message: "Must be after the start", path: ["to"] });
    checkCursors(v, ctx, (key) => key.length === 2 && key.every((k) => Number.isSafeInteger(k)));
  });

/** AuditListQuery is a validated audit log query. */
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
