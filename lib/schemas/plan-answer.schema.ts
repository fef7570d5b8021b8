import { z } from "zod";
import { operationSchema } from "./limit.schema";
import { limitShapeSchema, quotaShapeSchema } from "./limit-answer.schema";

/** storedBucketSchema is a plan's bucket limit as answered: its operation, its dry-run flag always present. */
export const storedBucketSchema = limitShapeSchema
  .extend({ operation: operationSchema, dryRun: z.boolean() })
  .strict();

/** storedQuotaSchema is a plan's quota as answered: its operation, zone and dry-run flag always present. */
export const storedQuotaSchema = quotaShapeSchema
  .extend({ operation: operationSchema, dryRun: z.boolean() })
  .strict();

/** storedLimitSchema is a plan's limit as answered: a bucket limit (periodMs) or a quota (period). */
export const storedLimitSchema = z.union([storedBucketSchema, storedQuotaSchema]);

/** StoredLimit is a plan's limit as answered. */
export type StoredLimit = z.infer<typeof storedLimitSchema>;

/** StoredQuota is a plan's quota as answered. */
export type StoredQuota = z.infer<typeof storedQuotaSchema>;

/**
 * planViewSchema is a plan with its limits, as every admin answer shows it: limits by operation,
 * enforced before dry-run, buckets by period, then quotas (day, week, month, then zone). Times in ms since 1970.
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
