import { z } from "zod";
import { ANY_LIST, isRecord } from "./every-error";
import { classNameSchema, isClassName } from "./operation-class.schema";

/** MAX_COUNT is the largest count a stored limit may have. */
export const MAX_COUNT = 1_000_000;
/** MAX_PERIOD_MS is the longest period a stored limit may have: 30 days. */
export const MAX_PERIOD_MS = 30 * 86_400_000;

/** operationSchema accepts the name of an operation class (whether it exists is checked on save). */
export const operationSchema = classNameSchema;

/**
 * limitRowSchema is one limit of a plan or override: count tokens per periodMs. Each bound is
 * checked first, and alone: a number past it (past 2^53 it fails wholeness too) is told only its
 * bound. Regression: 99999999999999999999 read "Count must be a whole number".
 */
export const limitRowSchema = z
  .object({
    operation: operationSchema,
    count: z
      .number({ error: "Count must be a number" })
      .max(MAX_COUNT, {
        error: `Count must be at most ${MAX_COUNT.toLocaleString("en-US")}`,
        abort: true,
      })
      .int("Count must be a whole number")
      .min(1, "Count must be at least 1"),
    periodMs: z
      .number({ error: "Period must be a number" })
      .max(MAX_PERIOD_MS, { error: "Period must be at most 30 days", abort: true })
      .int("Period must be a whole number of milliseconds")
      .min(1, "Period must be positive"),
    /** dryRun: counted when it would refuse, never refusing (see docs/usage-analytics.md, "Dry-run limits"). */
    dryRun: z.boolean({ error: "Dry run must be true or false" }).optional(),
  })
  .strict();

/** LimitRow is a validated limit row. */
export type LimitRow = z.infer<typeof limitRowSchema>;

/**
 * isWellTyped tells whether each field of a row has its type (its range may still be wrong), as
 * rows must for refuseDuplicates to compare them: a row of unknown operation or of a `dryRun`
 * that is not true or false is left to its own errors.
 */
function isWellTyped(
  row: unknown,
): row is { operation?: unknown; count: number; periodMs: number } {
  return (
    isRecord(row) &&
    typeof row.count === "number" &&
    typeof row.periodMs === "number" &&
    (row.operation === undefined || isClassName(row.operation)) &&
    (row.dryRun === undefined || typeof row.dryRun === "boolean")
  );
}

/**
 * refuseDuplicates flags each limit that repeats an earlier one of the same operation (count and
 * period), dry-run or not: a dry-run limit equal to an enforced one would share its bucket. It
 * runs beside the rows' own errors (ANY_LIST), on the well-typed rows (isWellTyped).
 * Regression: a duplicate beside a row of unknown operation came to light only once that row was
 * fixed.
 */
function refuseDuplicates(rows: readonly unknown[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    if (!isWellTyped(row)) return;
    const id = `${row.operation ?? ""}/${row.count}/${row.periodMs}`;
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
  .array(limitRowSchema.omit({ operation: true }).strict())
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
