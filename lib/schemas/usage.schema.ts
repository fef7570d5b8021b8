import { z } from "zod";
import { USAGE_GRANULARITIES } from "@/lib/vocabulary";
import { classNameSchema } from "./operation-class.schema";

/** ISO_TIME matches an ISO 8601 date or date-time ("2025-01-31", "2025-01-31T12:00:00Z"). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** instantSchema reads a time: milliseconds since the epoch, or an ISO 8601 date or date-time. */
export const instantSchema = z.string().transform((text, ctx) => {
  const value = text.trim();
  const ms = /^\d{1,15}$/.test(value)
    ? Number(value)
    : ISO_TIME.test(value)
      ? Date.parse(value)
      : NaN;
  if (!Number.isFinite(ms)) {
    ctx.addIssue({
      code: "custom",
      message: "Use milliseconds since the epoch or an ISO 8601 time (2025-01-31T12:00:00Z)",
    });
    return z.NEVER;
  }
  return ms;
});

const id = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, "Must be a positive whole number")
  .transform(Number);

const wholeIn = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, "Must be a whole number")
    .transform(Number)
    .refine((n) => n >= min && n <= max, `Must be between ${min} and ${max}`);

/** usageFiltersShape: a range (both ends optional) and the dimensions every usage query takes. */
const usageFiltersShape = {
  from: instantSchema.optional(),
  to: instantSchema.optional(),
  customerId: id.optional(),
  planId: id.optional(),
  operation: classNameSchema.optional(),
};

/** usageQuerySchema is GET /api/admin/usage's query: filters and an optional granularity. */
export const usageQuerySchema = z
  .object({ ...usageFiltersShape, granularity: z.enum(USAGE_GRANULARITIES).optional() })
  .strict();

/** usageFiltersSchema is the query of the CSV export and the per-plan aggregates. */
export const usageFiltersSchema = z.object(usageFiltersShape).strict();

/** topCustomersQuerySchema adds how many customers each ranking lists (10 by default). */
export const topCustomersQuerySchema = z
  .object({ ...usageFiltersShape, limit: wholeIn(1, 100).optional() })
  .strict();

/**
 * nearLimitQuerySchema adds how far a bucket must have been drained to count as near, as a share
 * of its count (0.8 by default; 1 for drained buckets only).
 */
export const nearLimitQuerySchema = z
  .object({
    ...usageFiltersShape,
    minShare: z
      .string()
      .regex(/^\d+(\.\d+)?$/, "Must be a number such as 0.8")
      .transform(Number)
      .refine((n) => n > 0 && n <= 1, "Must be more than 0 and at most 1")
      .optional(),
    limit: wholeIn(1, 500).optional(),
  })
  .strict();

/** dryRunQuerySchema is the range of a dry-run report (the last 24 hours by default). */
export const dryRunQuerySchema = z
  .object({ from: instantSchema.optional(), to: instantSchema.optional() })
  .strict();

/** promoteSchema promotes a plan's dry-run limits: of one operation, or (empty) of both. */
export const promoteSchema = z
  .object({ operation: classNameSchema.optional() })
  .strict()
  .default({});

/** UsageQueryInput is a validated usage query, before its range is resolved. */
export type UsageQueryInput = z.infer<typeof usageQuerySchema>;
/** UsageFiltersInput is a validated set of usage filters, before its range is resolved. */
export type UsageFiltersInput = z.infer<typeof usageFiltersSchema>;
