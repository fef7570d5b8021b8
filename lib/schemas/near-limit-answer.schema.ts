import { z } from "zod";
import { LIMIT_SOURCES } from "@/lib/vocabulary";
import { limitShapeSchema, quotaShapeSchema } from "./limit-answer.schema";
import { classNameSchema } from "./operation-class.schema";
import { liveScopeSchema } from "./traffic-answer.schema";
import { rangeShape } from "./usage-answer.schema";

// GET /api/admin/usage/near-limit's answer: the customers whose buckets were drained near their
// limits over a range, or who were refused by them (see docs/usage-analytics.md).

/** findingShape is who a near-limit finding is about, and its refusals over the range (429). */
const findingShape = {
  customerId: z.number().int().positive(),
  operation: classNameSchema,
  source: z.enum(LIMIT_SOURCES),
  refused: z.number().int().nonnegative(),
};

/**
 * peakNearLimitSchema is one customer's deepest draw on one limit's bucket over a range, measured
 * as the bucket does: the bucket (`count` tokens per `periodMs`) is replayed from full at the
 * range's start through the tokens the customer took, with the limiter's own arithmetic
 * (BucketTrace), and `lowestTokens` is the fewest whole tokens it held, first at `lowestAtMs`
 * (ms since 1970). `share` = 1 - lowestTokens / count: 1 when the bucket was drained, never more
 * (a limit that is enforced cannot be exceeded). The tokens are placed per `resolutionMs`: per
 * second from the live view, at the times of each second's decisions; per rollup step (a minute,
 * or an hour), each step's tokens at its start, the earliest they can have been taken. Only
 * limits of at least a step are measured at a resolution (a shorter one would look drained by
 * every busy step). `refused` counts the decisions of the customer and operation refused by its
 * limits over the range (429; not those refused for their cost).
 */
export const peakNearLimitSchema = z
  .object({
    kind: z.literal("peak"),
    ...findingShape,
    limit: limitShapeSchema,
    resolutionMs: z.number().int().positive(),
    lowestTokens: z.number().nonnegative(),
    lowestAtMs: z.number().int(),
    share: z.number().max(1),
  })
  .strict();

/** PeakNearLimit is one customer's deepest draw on one limit's bucket over a range. */
export type PeakNearLimit = z.infer<typeof peakNearLimitSchema>;

/**
 * refusedNearLimitSchema is a customer refused by its limits over the range (`refused` decisions
 * of the operation, 429) whose replayed buckets were never drained: a limit it reached was one
 * the measure cannot see (one shorter than the resolution, or a limit changed since). It counts
 * as 100% of a limit; `unmeasured` are its limits that were not measured over the range.
 */
export const refusedNearLimitSchema = z
  .object({
    kind: z.literal("refused"),
    ...findingShape,
    share: z.literal(1),
    unmeasured: z.array(limitShapeSchema),
  })
  .strict();

/** RefusedNearLimit is a customer refused by limits its replayed buckets never showed drained. */
export type RefusedNearLimit = z.infer<typeof refusedNearLimitSchema>;

/**
 * quotaNearLimitSchema is a customer's use of one quota in its current period: `used` of
 * `quota.count` + `granted` requests since `periodStartMs` (ms since 1970), the period ending at
 * `periodEndMs`; `share` = used / (count + granted), at most 1 (a quota cannot be exceeded).
 * `anchorDay` is the customer's billing day, for a month.
 */
export const quotaNearLimitSchema = z
  .object({
    kind: z.literal("quota"),
    ...findingShape,
    quota: quotaShapeSchema,
    anchorDay: z.number().int().min(1).max(31).optional(),
    granted: z.number().int().nonnegative(),
    used: z.number().int().nonnegative(),
    periodStartMs: z.number().int(),
    periodEndMs: z.number().int(),
    share: z.number().min(0).max(1),
  })
  .strict();

/** QuotaNearLimit is a customer's use of one quota this period. */
export type QuotaNearLimit = z.infer<typeof quotaNearLimitSchema>;

/** NearLimit is a customer near a limit: by a measured peak, by refusals, or by a quota's use. */
export type NearLimit = PeakNearLimit | RefusedNearLimit | QuotaNearLimit;

/** namedShape is the customer's name and current plan (null for a customer since deleted). */
const namedShape = {
  name: z.string(),
  planId: z.number().int().positive().nullable(),
  planSlug: z.string().nullable(),
};

/** nearLimitViewSchema is a near-limit finding with the customer's name and current plan. */
export const nearLimitViewSchema = z.discriminatedUnion("kind", [
  peakNearLimitSchema.extend(namedShape).strict(),
  refusedNearLimitSchema.extend(namedShape).strict(),
  quotaNearLimitSchema.extend(namedShape).strict(),
]);

/** NearLimitView is a near-limit finding with the customer's name and current plan. */
export type NearLimitView = z.infer<typeof nearLimitViewSchema>;

/**
 * nearLimitAnswerSchema is GET /api/admin/usage/near-limit's answer over a range: the findings
 * nearest first, at `minShare` of a limit or more. `resolutionMs` is the rollups' step the range
 * is measured in (a minute, or an hour); limits shorter than it are measured per second from
 * `perSecondFromMs` (the live view keeps the last 5 minutes; null when the range has none of
 * it), over the fleet's seconds (Redis) or this instance's (`perSecondScope`).
 */
export const nearLimitAnswerSchema = z
  .object({
    ...rangeShape,
    minShare: z.number().positive().max(1),
    resolutionMs: z.number().int().positive(),
    perSecondFromMs: z.number().int().nullable(),
    perSecondScope: liveScopeSchema.nullable(),
    customers: z.array(nearLimitViewSchema),
  })
  .strict();

/** NearLimitAnswer is GET /api/admin/usage/near-limit's answer. */
export type NearLimitAnswer = z.infer<typeof nearLimitAnswerSchema>;
