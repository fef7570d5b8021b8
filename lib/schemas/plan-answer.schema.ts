import { z } from "zod";
import { operationSchema } from "./limit.schema";
import { limitShapeSchema, quotaShapeSchema } from "./limit-answer.schema";

/** storedLimitSchema is a plan's limit as answered: its operation, its dry-run flag always present. */
export const storedLimitSchema = limitShapeSchema
  .extend({ operation: operationSchema, dryRun: z.boolean() })
  .strict();

/** StoredLimit is a plan's limit as answered. */
export type StoredLimit = z.infer<typeof storedLimitSchema>;

/** storedQuotaSchema is a plan's quota as answered: its operation, its dry-run flag always present. */
export const storedQuotaSchema = quotaShapeSchema
  .extend({ operation: operationSchema, dryRun: z.boolean() })
  .strict();

/** StoredQuota is a plan's quota as answered. */
export type StoredQuota = z.infer<typeof storedQuotaSchema>;

/** anyStoredLimitSchema is a plan's limit as answered once plans have quotas: a bucket or a quota. */
export const anyStoredLimitSchema = z.union([storedLimitSchema, storedQuotaSchema]);

/** AnyStoredLimit is a plan's bucket or quota as answered. */
export type AnyStoredLimit = z.infer<typeof anyStoredLimitSchema>;

/**
 * planViewSchema is a plan with its limits, as every admin answer shows it: limits by operation,
 * enforced before dry-run, then by period. Times in ms since 1970.
 */
export const planViewSchema = z
  .object({
    id: z.number().int().positive(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
    limits: z.array(storedLimitSchema),
  })
  .strict();

/** PlanView is a plan with its limits, as answered. */
export type PlanView = z.infer<typeof planViewSchema>;

/** planListItemSchema is a plan as the list shows it: with how many customers it has now. */
export const planListItemSchema = planViewSchema
  .extend({ customerCount: z.number().int().nonnegative() })
  .strict();

/** PlanListItem is a plan with its customer count. */
export type PlanListItem = z.infer<typeof planListItemSchema>;

/** plansAnswerSchema is GET /api/admin/plans's answer: every plan, by name. */
export const plansAnswerSchema = z.object({ plans: z.array(planListItemSchema) }).strict();

/** PlansAnswer is GET /api/admin/plans's answer. */
export type PlansAnswer = z.infer<typeof plansAnswerSchema>;

/** planAnswerSchema answers GET, POST and PATCH of a plan: the plan as it is now. */
export const planAnswerSchema = z.object({ plan: planViewSchema }).strict();

/** PlanAnswer is one plan's answer. */
export type PlanAnswer = z.infer<typeof planAnswerSchema>;

/**
 * planPromotedAnswerSchema is POST /api/admin/plans/:id/dry-run/promote's answer: the plan now,
 * and how many of its dry-run limits were made enforced.
 */
export const planPromotedAnswerSchema = planAnswerSchema
  .extend({ promoted: z.number().int().positive() })
  .strict();

/** PlanPromotedAnswer is what promoting a plan's dry-run limits answers. */
export type PlanPromotedAnswer = z.infer<typeof planPromotedAnswerSchema>;
