import { z } from "zod";
import { QUOTA_PERIODS } from "@/lib/vocabulary";

/**
 * quotaGrantViewSchema is a grant as operators see it: `extra` more of one quota of the customer
 * for the period starting at `periodStartMs`. Times in ms since 1970.
 */
export const quotaGrantViewSchema = z
  .object({
    id: z.number().int().positive(),
    customerId: z.number().int().positive(),
    operation: z.string(),
    period: z.enum(QUOTA_PERIODS),
    timeZone: z.string(),
    periodStartMs: z.number().int(),
    extra: z.number().int().positive(),
    note: z.string(),
    createdAt: z.number().int(),
    createdBy: z.string(),
  })
  .strict();

/** QuotaGrantView is a grant as answered. */
export type QuotaGrantView = z.infer<typeof quotaGrantViewSchema>;

/** quotaGrantsAnswerSchema is GET /api/admin/customers/:id/quota-grants's answer: newest first. */
export const quotaGrantsAnswerSchema = z.object({ grants: z.array(quotaGrantViewSchema) }).strict();

/** QuotaGrantsAnswer is a customer's grants, newest first. */
export type QuotaGrantsAnswer = z.infer<typeof quotaGrantsAnswerSchema>;

/** quotaGrantAnswerSchema is what creating a grant answers (201): the grant. */
export const quotaGrantAnswerSchema = z.object({ grant: quotaGrantViewSchema }).strict();

/** QuotaGrantAnswer is a new grant, as answered. */
export type QuotaGrantAnswer = z.infer<typeof quotaGrantAnswerSchema>;
