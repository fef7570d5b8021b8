import { z } from "zod";
import { CUSTOMER_STATUSES } from "@/lib/vocabulary";
import { limitShapeSchema, quotaShapeSchema } from "./limit-answer.schema";
import { pageInfoSchema } from "./list.schema";
import { classNameSchema } from "./operation-class.schema";
import { decisionCountsSchema } from "./traffic-answer.schema";

/**
 * customerViewSchema is a customer as operators see it: never its key hash, with its plan's slug
 * and name, and the day of the month (1..31) its monthly quotas start on. Times in ms since 1970.
 */
export const customerViewSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    planId: z.number().int().positive(),
    planSlug: z.string(),
    planName: z.string(),
    status: z.enum(CUSTOMER_STATUSES),
    apiKeyPrefix: z.string(),
    billingAnchorDay: z.number().int().min(1).max(31),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .strict();

/** CustomerView is a customer as answered. */
export type CustomerView = z.infer<typeof customerViewSchema>;

/** overrideLimitViewSchema is one limit of an override: count tokens per periodMs, maybe dry-run. */
export const overrideLimitViewSchema = limitShapeSchema
  .extend({ dryRun: z.boolean().optional() })
  .strict();

/** overrideQuotaViewSchema is one quota of an override: count requests per calendar period, maybe dry-run. */
export const overrideQuotaViewSchema = quotaShapeSchema
  .extend({ dryRun: z.boolean().optional() })
  .strict();

/** overrideViewSchema is a customer's override for one operation, until `expiresAt` (ms) or null. */
export const overrideViewSchema = z
  .object({
    limits: z.array(z.union([overrideLimitViewSchema, overrideQuotaViewSchema])),
    expiresAt: z.number().int().nullable(),
  })
  .strict();

/** OverrideView is one operation's override as answered. */
export type OverrideView = z.infer<typeof overrideViewSchema>;

/** overridesViewSchema is a customer's overrides by operation; an operation without one is absent. */
export const overridesViewSchema = z.record(classNameSchema, overrideViewSchema);

/** OverridesView is a customer's overrides by operation, as answered. */
export type OverridesView = z.infer<typeof overridesViewSchema>;

/**
 * customerListItemSchema is a customer as the list shows it: with its recent traffic (its
 * decisions over the list's recent window).
 */
export const customerListItemSchema = customerViewSchema
  .extend({ traffic: decisionCountsSchema })
  .strict();

/** CustomerListItem is a customer with its recent traffic. */
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

/** customersAnswerSchema is GET /api/admin/customers's answer: one page, its cursors and total. */
export const customersAnswerSchema = pageInfoSchema
  .extend({ customers: z.array(customerListItemSchema) })
  .strict();

/** CustomersAnswer is one page of the customers list. */
export type CustomersAnswer = z.infer<typeof customersAnswerSchema>;

/** customerAnswerSchema is GET /api/admin/customers/:id's answer: the customer and its overrides. */
export const customerAnswerSchema = z
  .object({ customer: customerViewSchema, overrides: overridesViewSchema })
  .strict();

/** CustomerAnswer is one customer with its overrides. */
export type CustomerAnswer = z.infer<typeof customerAnswerSchema>;

/** customerUpdatedAnswerSchema is PATCH /api/admin/customers/:id's answer: the customer now. */
export const customerUpdatedAnswerSchema = z.object({ customer: customerViewSchema }).strict();

/**
 * customerKeyAnswerSchema is what creating a customer (201) or rotating its key answers: the
 * customer and its new API key, shown this once.
 */
export const customerKeyAnswerSchema = z
  .object({ customer: customerViewSchema, apiKey: z.string() })
  .strict();

/** CustomerKeyAnswer is a customer with its new API key. */
export type CustomerKeyAnswer = z.infer<typeof customerKeyAnswerSchema>;

/** overridesAnswerSchema is what setting or clearing an override answers: the overrides now. */
export const overridesAnswerSchema = z.object({ overrides: overridesViewSchema }).strict();

/** OverridesAnswer is the overrides now, as setting or clearing one answers. */
export type OverridesAnswer = z.infer<typeof overridesAnswerSchema>;

/**
 * overridesPromotedAnswerSchema is POST /api/admin/customers/:id/overrides/:operation/promote's
 * answer: the overrides now, and how many dry-run limits of the override were made enforced.
 */
export const overridesPromotedAnswerSchema = overridesAnswerSchema
  .extend({ promoted: z.number().int().positive() })
  .strict();

/** OverridesPromotedAnswer is what promoting an override's dry-run limits answers. */
export type OverridesPromotedAnswer = z.infer<typeof overridesPromotedAnswerSchema>;

/**
 * resetAnswerSchema is POST /api/admin/customers/:id/reset's answer: how many of the customer's
 * buckets were forgotten (they start full again).
 */
export const resetAnswerSchema = z.object({ deleted: z.number().int().nonnegative() }).strict();

/** ResetAnswer is what resetting a customer's buckets answers. */
export type ResetAnswer = z.infer<typeof resetAnswerSchema>;
