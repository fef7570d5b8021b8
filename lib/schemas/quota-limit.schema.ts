import { z } from "zod";
import { QUOTA_PERIODS } from "@/lib/vocabulary";
import { overrideSchema } from "./customer.schema";
import { ANY_LIST, isRecord } from "./every-error";
import { limitRowSchema, operationSchema } from "./limit.schema";
import { planUpdateSchema } from "./plan.schema";
import { timeZoneSchema } from "./quota-grant.schema";

// A plan's or an override's limits in the wire format that has quotas beside token buckets
// (docs: "Wire format of limits"): a row with `periodMs` is a bucket, a row with `period` a quota
// counted per calendar day, week or month in `timeZone` (UTC when absent), months from each
// customer's billing day. The editors check their drafts with these schemas.

/** MAX_QUOTA_COUNT is the largest count a quota may have: a billion per period. */
export const MAX_QUOTA_COUNT = 1_000_000_000;

/** MAX_LIMITS is how many limits one plan (or one override) may have. */
const MAX_LIMITS = 20;

const quotaCount = z
  .number({ error: "Count must be a number" })
  .max(MAX_QUOTA_COUNT, {
    error: `Count must be at most ${MAX_QUOTA_COUNT.toLocaleString("en-US")}`,
    abort: true,
  })
  .int("Count must be a whole number")
  .min(1, "Count must be at least 1");

/**
 * quotaRowSchema is one quota of a plan: `count` requests per calendar `period` of `timeZone`
 * (an IANA name, UTC when absent), maybe dry-run.
 */
export const quotaRowSchema = z
  .object({
    operation: operationSchema,
    count: quotaCount,
    period: z.enum(QUOTA_PERIODS, { error: "Period must be day, week or month" }),
    timeZone: timeZoneSchema.optional(),
    dryRun: z.boolean({ error: "Dry run must be true or false" }).optional(),
  })
  .strict();

/** QuotaRow is a validated quota of a plan. */
export type QuotaRow = z.infer<typeof quotaRowSchema>;

/** QuotaLimit is a validated quota of an override (no operation: the override's). */
export type QuotaLimit = Omit<QuotaRow, "operation">;

/** isQuotaInput tells a quota's row (it names a `period`) from a bucket's, before validation. */
export function isQuotaInput(value: unknown): boolean {
  return isRecord(value) && value.period !== undefined;
}

/**
 * eitherLimit checks a row with the bucket's schema or the quota's, by whether it names a
 * `period`, and reports that schema's issues at the row's own paths ("limits.0.count"), as a
 * union would not. A row with both `period` and `periodMs` is told to keep one.
 */
function eitherLimit<B extends z.ZodType, Q extends z.ZodType>(bucket: B, quota: Q) {
  return z.unknown().transform((value, ctx): z.output<B> | z.output<Q> => {
    if (isQuotaInput(value) && isRecord(value) && value.periodMs !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: "A limit counts per period in ms (a bucket) or per day, week or month, not both",
      });
      return z.NEVER;
    }
    const parsed = (isQuotaInput(value) ? quota : bucket).safeParse(value);
    if (parsed.success) return parsed.data as z.output<B> | z.output<Q>;
    for (const issue of parsed.error.issues) {
      ctx.issues.push({ ...issue, input: value } as (typeof ctx.issues)[number]);
    }
    return z.NEVER;
  });
}

/**
 * refuseRepeats flags each limit that repeats an earlier one of the same operation: a bucket of
 * the same count and period, or a quota of the same period and time zone (two would count the
 * same requests in the same calendar, whatever their counts).
 */
function refuseRepeats(rows: readonly unknown[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    if (!isRecord(row) || typeof row.count !== "number") return;
    const op = typeof row.operation === "string" ? row.operation : "";
    const quota = isQuotaInput(row);
    const id = quota
      ? `q/${op}/${String(row.period)}/${typeof row.timeZone === "string" ? row.timeZone : "UTC"}`
      : `b/${op}/${row.count}/${String(row.periodMs)}`;
    if (seen.has(id)) {
      const message = quota
        ? "Duplicate quota: another counts the same period in the same time zone"
        : "Duplicate limit";
      ctx.addIssue({ code: "custom", message, path: [index] });
    }
    seen.add(id);
  });
}

/** anyLimitRowSchema is one limit of a plan: a token bucket (limitRowSchema) or a quota. */
export const anyLimitRowSchema = eitherLimit(limitRowSchema, quotaRowSchema);

/** AnyLimitRow is a validated limit of a plan: a bucket or a quota. */
export type AnyLimitRow = z.infer<typeof anyLimitRowSchema>;

/** anyLimitRowsSchema is a plan's limits, buckets and quotas, at most 20, none repeated. */
export const anyLimitRowsSchema = z
  .array(anyLimitRowSchema)
  .max(MAX_LIMITS, "At most 20 limits")
  .superRefine(refuseRepeats, ANY_LIST);

/**
 * anyOverrideLimitsSchema is an override's limits, buckets and quotas: one or more, none
 * repeated, at least one enforced (an override replaces all of its class's limits).
 */
export const anyOverrideLimitsSchema = z
  .array(
    eitherLimit(limitRowSchema.omit({ operation: true }), quotaRowSchema.omit({ operation: true })),
  )
  .min(1, "Add at least one limit")
  .max(MAX_LIMITS, "At most 20 limits")
  .superRefine(refuseRepeats, ANY_LIST)
  .refine(
    (rows: readonly unknown[]) =>
      rows.length === 0 || rows.some((row) => !isRecord(row) || row.dryRun !== true),
    {
      message: "Keep at least one enforced limit: dry-run limits alone would lift the plan's",
      ...ANY_LIST,
    },
  );

const planFields = planUpdateSchema.shape;

/** anyPlanCreateSchema is a new plan's body whose limits may be quotas (planCreateSchema's rules). */
export const anyPlanCreateSchema = z
  .object({
    slug: planFields.slug.unwrap(),
    name: planFields.name.unwrap(),
    description: planFields.description.unwrap().default(""),
    limits: anyLimitRowsSchema.default([]),
  })
  .strict();

/** AnyPlanCreate is a validated new plan, its limits buckets or quotas. */
export type AnyPlanCreate = z.infer<typeof anyPlanCreateSchema>;

/** anyPlanUpdateSchema is a plan edit whose limits may be quotas (planUpdateSchema's rules). */
export const anyPlanUpdateSchema = z
  .object({ ...planFields, limits: anyLimitRowsSchema.optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to change" });

/** AnyPlanUpdate is a validated plan edit, its limits buckets or quotas. */
export type AnyPlanUpdate = z.infer<typeof anyPlanUpdateSchema>;

/** anyOverrideSchema sets an override whose limits may be quotas (overrideSchema's rules). */
export const anyOverrideSchema = z
  .object({ limits: anyOverrideLimitsSchema, expiresAt: overrideSchema.shape.expiresAt })
  .strict();

/** AnyOverrideInput is a validated override, its limits buckets or quotas. */
export type AnyOverrideInput = z.infer<typeof anyOverrideSchema>;
