import { z } from "zod";
import { MAX_QUOTA_COUNT, QUOTA_PERIODS } from "@/lib/vocabulary";
import { ANY_LIST, isRecord } from "./every-error";
import { classNameSchema, isClassName } from "./operation-class.schema";
import { timeZoneName, timeZoneSchema } from "./time-zone.schema";

/** MAX_COUNT is the largest count a stored bucket limit may have (quotas: MAX_QUOTA_COUNT). */
export const MAX_COUNT = 1_000_000;
/** MAX_PERIOD_MS is the longest period a stored limit may have: 30 days. */
export const MAX_PERIOD_MS = 30 * 86_400_000;
export { MAX_QUOTA_COUNT };

/** operationSchema accepts the name of an operation class (whether it exists is checked on save). */
export const operationSchema = classNameSchema;

const countField = z.number({ error: "Count must be a number" });

/** bucketCount is a bucket limit's count: 1..MAX_COUNT, its bound checked first and alone. */
const bucketCount = countField
  .max(MAX_COUNT, {
    error: `Count must be at most ${MAX_COUNT.toLocaleString("en-US")}`,
    abort: true,
  })
  .int("Count must be a whole number")
  .min(1, "Count must be at least 1");

/** quotaCount is a quota's count: 1..MAX_QUOTA_COUNT, its bound checked first and alone. */
const quotaCount = countField
  .max(MAX_QUOTA_COUNT, {
    error: `Count must be at most ${MAX_QUOTA_COUNT.toLocaleString("en-US")}`,
    abort: true,
  })
  .int("Count must be a whole number")
  .min(1, "Count must be at least 1");

/** dryRunField: counted when it would refuse, never refusing (see docs/usage-analytics.md, "Dry-run limits"). */
const dryRunField = z.boolean({ error: "Dry run must be true or false" }).optional();

/**
 * bucketRowSchema is one bucket limit of a plan or override: count tokens per periodMs. Each
 * bound is checked first, and alone: a number past it (past 2^53 it fails wholeness too) is
 * told only its bound. Regression: 99999999999999999999 read "Count must be a whole number".
 */
export const bucketRowSchema = z
  .object({
    operation: operationSchema,
    count: bucketCount,
    periodMs: z
      .number({ error: "Period must be a number" })
      .max(MAX_PERIOD_MS, { error: "Period must be at most 30 days", abort: true })
      .int("Period must be a whole number of milliseconds")
      .min(1, "Period must be positive"),
    dryRun: dryRunField,
  })
  .strict();

/**
 * QUOTA_DRY_RUN_RULE is why a quota row may not be dry-run: the dry-run reports count bucket
 * limits only, so a dry-run quota would be counted nowhere.
 */
export const QUOTA_DRY_RUN_RULE =
  "A quota cannot be dry-run: enforce it, or try a bucket limit in dry-run first";

/**
 * quotaRowSchema is one quota of a plan or override: count (1..1,000,000,000) tokens per
 * calendar period (day, week or month) in an IANA time zone (UTC when absent; answered as the
 * runtime names it). Months start on the customer's billing anchor day. Never dry-run
 * (QUOTA_DRY_RUN_RULE).
 */
export const quotaRowSchema = z
  .object({
    operation: operationSchema,
    count: quotaCount,
    period: z.enum(QUOTA_PERIODS, { error: "Period must be day, week or month" }),
    timeZone: timeZoneSchema.optional(),
    dryRun: z
      .boolean({ error: "Dry run must be true or false" })
      .refine((dryRun) => !dryRun, QUOTA_DRY_RUN_RULE)
      .optional(),
  })
  .strict();

/** isQuotaInput tells a row meant as a quota (it names a `period`) from a bucket row. */
function isQuotaInput(row: unknown): boolean {
  return isRecord(row) && row.period !== undefined;
}

/**
 * eitherRow parses a row as a quota when it names a `period`, else as a bucket limit, with that
 * schema's errors by field, all at once; a row with both `period` and `periodMs` is told so.
 */
function eitherRow<B extends z.ZodType, Q extends z.ZodType>(bucket: B, quota: Q) {
  return z.unknown().transform((row, ctx): z.output<B> | z.output<Q> => {
    const asQuota = isQuotaInput(row);
    let given = row;
    if (asQuota && isRecord(row) && row.periodMs !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["periodMs"],
        message: "A limit has either periodMs (a bucket) or period (a quota), not both",
      });
      const { periodMs: _both, ...rest } = row;
      given = rest;
    }
    const parsed = (asQuota ? quota : bucket).safeParse(given);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        // As zod gave it (an unknown field keeps its keys, for fieldErrorsOf).
        ctx.addIssue({ ...issue, input: undefined });
      }
      // The row as given, as a failed field leaves it: the list's checks (ANY_LIST) read it.
      return row as z.output<B>;
    }
    return parsed.data as z.output<B> | z.output<Q>;
  });
}

/** limitRowSchema is one limit of a plan: a bucket row (periodMs) or a quota row (period). */
export const limitRowSchema = eitherRow(bucketRowSchema, quotaRowSchema);

/** LimitRow is a validated limit row of either kind. */
export type LimitRow = z.infer<typeof limitRowSchema>;

/**
 * isWellTyped tells whether each field of a row has its type (its range may still be wrong), as
 * rows must for refuseDuplicates to compare them: a row of unknown operation or of a `dryRun`
 * that is not true or false is left to its own errors.
 */
function isWellTyped(row: unknown): row is {
  operation?: unknown;
  count: number;
  periodMs?: number;
  period?: string;
  timeZone?: string;
} {
  return (
    isRecord(row) &&
    typeof row.count === "number" &&
    (typeof row.periodMs === "number") !== (typeof row.period === "string") &&
    (row.timeZone === undefined || typeof row.timeZone === "string") &&
    (row.operation === undefined || isClassName(row.operation)) &&
    (row.dryRun === undefined || typeof row.dryRun === "boolean")
  );
}

/**
 * duplicateId names what two rows must not share: a bucket's operation, count and period; a
 * quota's operation, period and zone (two quotas of one calendar would count as one).
 */
function duplicateId(row: {
  operation?: unknown;
  count: number;
  periodMs?: number;
  period?: string;
  timeZone?: string;
}): string {
  const operation = row.operation ?? "";
  if (row.period !== undefined) {
    const zone = timeZoneName(row.timeZone ?? "UTC") ?? row.timeZone;
    return `${operation}/quota/${row.period}/${zone}`;
  }
  return `${operation}/${row.count}/${row.periodMs}`;
}

/**
 * refuseDuplicates flags each limit that repeats an earlier one of the same operation (count and
 * period for a bucket, period and zone for a quota), dry-run or not: a dry-run limit equal to an
 * enforced one would share its bucket. It runs beside the rows' own errors (ANY_LIST), on the
 * well-typed rows (isWellTyped).
 * Regression: a duplicate beside a row of unknown operation came to light only once that row was
 * fixed.
 */
function refuseDuplicates(rows: readonly unknown[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    if (!isWellTyped(row)) return;
    const id = duplicateId(row);
    if (seen.has(id)) {
      ctx.addIssue({ code: "custom", message: "Duplicate limit", path: [index] });
    }
    seen.add(id);
  });
}

/** limitRowsSchema is a list of limit rows with no duplicates. */
export const limitRowsSchema = z
  .array(limitRowSchema)
  .max(20, "At most 20 limits")
  .superRefine(refuseDuplicates, ANY_LIST);

/**
 * overrideLimitsSchema is an override's limits: one or more, no duplicates, and at least one
 * enforced (an override replaces the plan's limits, so dry-run limits alone would lift them all).
 */
export const overrideLimitsSchema = z
  .array(
    eitherRow(
      bucketRowSchema.omit({ operation: true }).strict(),
      quotaRowSchema.omit({ operation: true }).strict(),
    ),
  )
  .min(1, "Add at least one limit")
  .max(20, "At most 20 limits")
  .superRefine(refuseDuplicates, ANY_LIST)
  .refine(
    (rows: readonly unknown[]) =>
      rows.length === 0 || rows.some((row) => !isRecord(row) || row.dryRun !== true),
    {
      message: "Keep at least one enforced limit: dry-run limits alone would lift the plan's",
      ...ANY_LIST,
    },
  );
