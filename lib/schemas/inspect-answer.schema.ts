import { z } from "zod";
import { LIMIT_SOURCES, OPERATIONS } from "@/lib/vocabulary";
import { limitShapeSchema } from "./limit-answer.schema";

// The words below are the server's own unions (lib/policy, lib/usage): the routes that answer
// with them are typed by these schemas, so a word the server adds fails the typecheck there.

/** decisionReasonSchema is why a decision came out as it did ("ok" when allowed). */
export const decisionReasonSchema = z.enum([
  "ok",
  "rate_limited",
  "unknown_key",
  "suspended",
  "cost_exceeds_limit",
  "store_unavailable",
]);

/** DecisionReason is why a decision came out as it did. */
export type DecisionReason = z.infer<typeof decisionReasonSchema>;

/** decisionSourceSchema is where a decision was made: "stand-in" while Redis is unreachable. */
export const decisionSourceSchema = z.enum([
  "memory",
  "redis",
  "redis-cache",
  "stand-in",
  "unavailable",
]);

/** storeStatusSchema is the bucket store: memory, or Redis with where the instance stands with it. */
export const storeStatusSchema = z
  .object({
    store: z.enum(["memory", "redis"]),
    redis: z.enum(["connecting", "up", "down"]).optional(),
  })
  .strict();

/** StoreStatus is the bucket store's state. */
export type StoreStatus = z.infer<typeof storeStatusSchema>;

/**
 * bucketViewSchema is one bucket of a decision: its limit, tokens remaining of its capacity, the
 * wait before a refused take could pass and until it is full (ms), and when it was read (ms).
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

/** levelSampleSchema is a bucket's level at `t` (ms since 1970): tokens remaining, ms until full. */
export const levelSampleSchema = z
  .object({ t: z.number(), remaining: z.number(), fullInMs: z.number() })
  .strict();

/**
 * bucketHistorySchema is each bucket's level from `fromMs` to `toMs`, per operation and bucket,
 * replayed from the whole fleet's decisions or this instance's (`scope`).
 */
export const bucketHistorySchema = z
  .object({
    fromMs: z.number(),
    toMs: z.number(),
    scope: z.enum(["fleet", "instance"]),
    operations: z.record(z.enum(OPERATIONS), z.array(z.array(levelSampleSchema))),
  })
  .strict();

/** BucketHistory is each bucket's recent levels. */
export type BucketHistory = z.infer<typeof bucketHistorySchema>;

/** inspectAnswerSchema is GET /api/admin/customers/:id/inspect's answer (`history` when asked). */
export const inspectAnswerSchema = z
  .object({
    customerId: z.number().int().positive(),
    now: z.number(),
    store: storeStatusSchema,
    operations: z.record(z.enum(OPERATIONS), decisionViewSchema),
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
