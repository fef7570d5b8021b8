import { z } from "zod";
import { DECISION_REASONS, DECISION_SOURCES, LIMIT_SOURCES, QUOTA_PERIODS } from "@/lib/vocabulary";
import { storeStatusSchema } from "./health-answer.schema";
import { limitShapeSchema } from "./limit-answer.schema";
import { classNameSchema } from "./operation-class.schema";
import { liveScopeSchema } from "./traffic-answer.schema";

/** decisionReasonSchema is why a decision came out as it did ("ok" when allowed). */
export const decisionReasonSchema = z.enum(DECISION_REASONS);

/** DecisionReason is why a decision came out as it did. */
export type DecisionReason = z.infer<typeof decisionReasonSchema>;

/** decisionSourceSchema is where a decision was made: "stand-in" while Redis is unreachable. */
export const decisionSourceSchema = z.enum(DECISION_SOURCES);

/**
 * bucketViewSchema is one bucket of a decision: its limit, tokens remaining of its capacity, the
 * wait before a refused take could pass (ms; -1 where it never could), when it was read
 * (`executionTime`, ms since 1970) and the ms until it is full if nothing is taken (so the
 * dashboard can draw its refills between two peeks with the limiter's arithmetic).
 */
export const bucketViewSchema = z
  .object({
    limit: limitShapeSchema,
    remaining: z.number(),
    capacity: z.number(),
    retryAfterMs: z.number(),
    allowed: z.boolean(),
    executionTime: z.number(),
    fullInMs: z.number(),
  })
  .strict();

/** BucketView is one bucket of a decision, as the inspector shows it. */
export type BucketView = z.infer<typeof bucketViewSchema>;

/**
 * decisionViewSchema is one operation's decision, peeked or made, with its buckets: tokens
 * remaining and retry-after are null where unbounded.
 */
export const decisionViewSchema = z
  .object({
    source: z.enum(LIMIT_SOURCES),
    store: decisionSourceSchema,
    allowed: z.boolean(),
    tokensRequested: z.number(),
    tokensConsumed: z.number(),
    tokensRemaining: z.number().nullable(),
    retryAfterMs: z.number().nullable(),
    executionTime: z.number(),
    buckets: z.array(bucketViewSchema),
  })
  .strict();

/** DecisionView is one operation's decision with its buckets. */
export type DecisionView = z.infer<typeof decisionViewSchema>;

/**
 * levelSampleSchema is a bucket's level at `t` (ms since 1970), right after a take or at an end:
 * tokens remaining, ms until full.
 */
export const levelSampleSchema = z
  .object({ t: z.number(), remaining: z.number(), fullInMs: z.number() })
  .strict();

/** LevelSample is a bucket's level at one instant. */
export type LevelSample = z.infer<typeof levelSampleSchema>;

/**
 * bucketHistorySchema is each bucket's level from `fromMs` to `toMs`, per operation and bucket,
 * replayed from the whole fleet's decisions or this instance's (`scope`).
 */
export const bucketHistorySchema = z
  .object({
    fromMs: z.number(),
    toMs: z.number(),
    scope: liveScopeSchema,
    operations: z.record(classNameSchema, z.array(z.array(levelSampleSchema))),
  })
  .strict();

/** BucketHistory is each bucket's recent levels. */
export type BucketHistory = z.infer<typeof bucketHistorySchema>;

/**
 * quotaViewSchema is one quota of a customer as it stands, read by peek (never taking): `count`
 * requests of `operation` per calendar `period` of `timeZone` (months from `anchorDay`, the
 * customer's billing day; absent for days and weeks), `granted` more for this period, `used` of
 * them, `remaining` (count + granted - used, never below 0) until `periodEndMs`. Times in ms
 * since 1970; the period is [periodStartMs, periodEndMs).
 */
export const quotaViewSchema = z
  .object({
    operation: classNameSchema,
    source: z.enum(LIMIT_SOURCES),
    dryRun: z.boolean(),
    period: z.enum(QUOTA_PERIODS),
    timeZone: z.string(),
    anchorDay: z.number().int().min(1).max(31).optional(),
    count: z.number().int().positive(),
    granted: z.number().int().nonnegative(),
    used: z.number().int().nonnegative(),
    remaining: z.number().int().nonnegative(),
    periodStartMs: z.number().int(),
    periodEndMs: z.number().int(),
  })
  .strict();

/** QuotaView is one quota of a customer, with its use this period. */
export type QuotaView = z.infer<typeof quotaViewSchema>;

/** inspectAnswerSchema is GET /api/admin/customers/:id/inspect's answer (`history` when asked). */
export const inspectAnswerSchema = z
  .object({
    customerId: z.number().int().positive(),
    now: z.number(),
    store: storeStatusSchema,
    operations: z.record(classNameSchema, decisionViewSchema),
    // Optional until every server sends it (a customer with no quota has an empty list).
    quotas: z.array(quotaViewSchema).optional(),
    history: bucketHistorySchema.optional(),
  })
  .strict();

/** InspectAnswer is the inspector's answer. */
export type InspectAnswer = z.infer<typeof inspectAnswerSchema>;

/**
 * testRequestAnswerSchema is POST /api/admin/customers/:id/test-request's answer: the status a
 * protected request would have got, why, the decision (null when none was made: a suspended
 * customer) and its rate-limit header fields.
 */
export const testRequestAnswerSchema = z
  .object({
    status: z.number().int(),
    reason: decisionReasonSchema,
    decision: decisionViewSchema.nullable(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();

/** TestRequestAnswer is a test request's answer. */
export type TestRequestAnswer = z.infer<typeof testRequestAnswerSchema>;
