import { z } from "zod";
import { USAGE_COUNTERS, USAGE_GRANULARITIES, type UsageCounter } from "@/lib/vocabulary";
import { classNameSchema } from "./operation-class.schema";

// The usage analytics' answers (GET /api/admin/usage, /usage/top, /usage/plans): the rollups'
// counts over a range, as a series, a ranking of customers and each plan's aggregates.

const count = z.number().int().nonnegative();

/** usageCountsSchema holds one count per usage counter (USAGE_COUNTERS): decisions and tokens. */
export const usageCountsSchema = z
  .object(
    Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, count])) as Record<
      UsageCounter,
      typeof count
    >,
  )
  .strict();

/** rangeShape is the range an answer covers: [fromMs, toMs), ms since 1970. */
export const rangeShape = { fromMs: z.number().int(), toMs: z.number().int() };

/** usagePointSchema is one step of a series: decisions and tokens in [t, t + stepMs). */
export const usagePointSchema = usageCountsSchema.extend({ t: z.number().int() }).strict();

/** UsagePoint is one step of a series. */
export type UsagePoint = z.infer<typeof usagePointSchema>;

/** usageSeriesSchema is one operation's points: every step of the range, zeros included. */
export const usageSeriesSchema = z
  .object({ operation: classNameSchema, points: z.array(usagePointSchema) })
  .strict();

/** UsageSeries is one operation's points. */
export type UsageSeries = z.infer<typeof usageSeriesSchema>;

/** usageTotalsSchema is a range's sums, overall and per operation (both always present). */
export const usageTotalsSchema = usageCountsSchema
  .extend({ byOperation: z.record(classNameSchema, usageCountsSchema) })
  .strict();

/** UsageTotals are a range's sums, overall and per operation. */
export type UsageTotals = z.infer<typeof usageTotalsSchema>;

/**
 * usageReportSchema is a usage question's report: one series per operation (both, or the one
 * filtered) and the totals, over the range widened to whole steps of `stepMs` ms.
 */
export const usageReportSchema = z
  .object({
    ...rangeShape,
    granularity: z.enum(USAGE_GRANULARITIES),
    stepMs: z.number().int().positive(),
    series: z.array(usageSeriesSchema),
    totals: usageTotalsSchema,
  })
  .strict();

/** UsageReport is a usage question's series and totals. */
export type UsageReport = z.infer<typeof usageReportSchema>;

/**
 * usageAnswerSchema is GET /api/admin/usage's answer: the report, when it was made (`now`, ms)
 * and `flushIntervalMs`: the latest counts reach the rollups within about this long.
 */
export const usageAnswerSchema = usageReportSchema
  .extend({ now: z.number().int(), flushIntervalMs: z.number().int().positive() })
  .strict();

/** UsageAnswer is GET /api/admin/usage's answer. */
export type UsageAnswer = z.infer<typeof usageAnswerSchema>;

/**
 * customerUsageSchema is one customer's sums over a range, with its share of refused decisions:
 * denied over every decision (all outcomes), null with none.
 */
export const customerUsageSchema = usageCountsSchema
  .extend({ customerId: z.number().int().positive(), deniedShare: z.number().nullable() })
  .strict();

/** CustomerUsage is one customer's sums over a range. */
export type CustomerUsage = z.infer<typeof customerUsageSchema>;

/**
 * namedCustomerUsageSchema is a customer's sums with its name and current plan (the plan null
 * for a customer since deleted).
 */
export const namedCustomerUsageSchema = customerUsageSchema
  .extend({
    name: z.string(),
    planId: z.number().int().positive().nullable(),
    planSlug: z.string().nullable(),
    planName: z.string().nullable(),
  })
  .strict();

/** NamedCustomerUsage is a customer's usage with its name and current plan. */
export type NamedCustomerUsage = z.infer<typeof namedCustomerUsageSchema>;

/**
 * topCustomersAnswerSchema is GET /api/admin/usage/top's answer: the customers refused most and
 * those using most (tokens taken) over the range.
 */
export const topCustomersAnswerSchema = z
  .object({
    ...rangeShape,
    byDenials: z.array(namedCustomerUsageSchema),
    byUsage: z.array(namedCustomerUsageSchema),
  })
  .strict();

/** TopCustomersAnswer is GET /api/admin/usage/top's answer. */
export type TopCustomersAnswer = z.infer<typeof topCustomersAnswerSchema>;

/**
 * planUsageSchema is a plan's sums over a range: its traffic, the customers that sent any
 * (`activeCustomers`) and those refused at least once (`refusedCustomers`) on it.
 */
export const planUsageSchema = usageCountsSchema
  .extend({
    planId: z.number().int().positive(),
    activeCustomers: count,
    refusedCustomers: count,
  })
  .strict();

/** PlanUsage is a plan's sums over a range. */
export type PlanUsage = z.infer<typeof planUsageSchema>;

/**
 * planUsageViewSchema is a plan's sums with its slug and name (null slug for a plan since
 * deleted) and `customers`: how many customers it has now.
 */
export const planUsageViewSchema = planUsageSchema
  .extend({ slug: z.string().nullable(), name: z.string(), customers: count })
  .strict();

/** PlanUsageView is a plan's aggregates over a range, with its name and current customers. */
export type PlanUsageView = z.infer<typeof planUsageViewSchema>;

/** plansUsageAnswerSchema is GET /api/admin/usage/plans's answer: each plan's aggregates. */
export const plansUsageAnswerSchema = z
  .object({ ...rangeShape, plans: z.array(planUsageViewSchema) })
  .strict();

/** PlansUsageAnswer is GET /api/admin/usage/plans's answer. */
export type PlansUsageAnswer = z.infer<typeof plansUsageAnswerSchema>;
