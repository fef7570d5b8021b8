import { z } from "zod";
import { LIMIT_SOURCES } from "@/lib/vocabulary";
import { limitShapeSchema } from "./limit-answer.schema";
import { classNameSchema } from "./operation-class.schema";
import { rangeShape } from "./usage-answer.schema";

// The dry-run reports (GET /api/admin/plans/:id/dry-run, /api/admin/customers/:id/dry-run):
// what each dry-run limit would have refused over a range, where it was tried.

/**
 * dryRunStateSchema is what a tried limit is now: still tried ("dry-run"), "enforced" by whose
 * it is, "replaced" for a customer by an override of its operation (the plan's limit, which the
 * plan still has), "expired" with the override that held it, or "removed".
 */
export const dryRunStateSchema = z.enum(["dry-run", "enforced", "replaced", "expired", "removed"]);

/** DryRunState is what a tried limit is now. */
export type DryRunState = z.infer<typeof dryRunStateSchema>;

/** intervalSchema is a span [fromMs, toMs), ms since 1970. */
export const intervalSchema = z.object(rangeShape).strict();

/** dryRunCustomerSchema is a customer a dry-run limit would have refused, and how often. */
export const dryRunCustomerSchema = z
  .object({
    customerId: z.number().int().positive(),
    name: z.string(),
    refused: z.number().int().positive(),
  })
  .strict();

/** DryRunCustomer is a customer a dry-run limit would have refused, and how often. */
export type DryRunCustomer = z.infer<typeof dryRunCustomerSchema>;

/**
 * dryRunLimitReportSchema is one dry-run limit's verdict over a range, counted only over `tried`:
 * the parts of the range it was tried in for the scope, oldest first. `refused` admitted
 * decisions it would have refused, out of `decisions` (every decision of that operation in the
 * scope in those parts: allowed, denied and unavailable alike), so `share` = refused / decisions
 * (null with none); `customers` it would have refused at least once, the most refused first in
 * `top` (100 at most). `sinceMs` is when it was added, if within the range (else null); `state`
 * what it is now, since `stateSinceMs` (null while dry-run, or if not known).
 */
export const dryRunLimitReportSchema = limitShapeSchema
  .extend({
    operation: classNameSchema,
    source: z.enum(LIMIT_SOURCES),
    state: dryRunStateSchema,
    stateSinceMs: z.number().int().nullable(),
    sinceMs: z.number().int().nullable(),
    tried: z.array(intervalSchema),
    refused: z.number().int().nonnegative(),
    decisions: z.number().int().nonnegative(),
    share: z.number().nullable(),
    customers: z.number().int().nonnegative(),
    top: z.array(dryRunCustomerSchema),
  })
  .strict();

/** DryRunLimitReport is one dry-run limit's verdict over a range. */
export type DryRunLimitReport = z.infer<typeof dryRunLimitReportSchema>;

/** dryRunAnswerSchema is a dry-run report's answer: each limit's verdict over the range. */
export const dryRunAnswerSchema = z
  .object({ ...rangeShape, limits: z.array(dryRunLimitReportSchema) })
  .strict();

/** DryRunAnswer is a plan's or a customer's dry-run report over a range. */
export type DryRunAnswer = z.infer<typeof dryRunAnswerSchema>;
