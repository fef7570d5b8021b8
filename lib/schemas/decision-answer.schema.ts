import { z } from "zod";
import { QUOTA_PERIODS, SERVICE_TOKEN_SCOPES } from "@/lib/vocabulary";
import { decisionReasonSchema } from "./inspect-answer.schema";
import { limitShapeSchema } from "./limit-answer.schema";
import { classNameSchema } from "./operation-class.schema";
import { problemSchema } from "./problem.schema";

// The decision API's answers (docs/decision-api.md): POST /api/v1/decisions, its batch, and
// GET /api/v1/service-token. The data plane builds them typed by these schemas and writes them
// itself, never through zod (it is the hot path); the answer tests parse real answers strictly.

/** customerSummarySchema is the customer a decision was made for, with its plan. */
export const customerSummarySchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    plan: z
      .object({ id: z.number().int().positive(), slug: z.string(), name: z.string() })
      .strict(),
  })
  .strict();

/** CustomerSummary is the customer a decision was made for, as the decision API names it. */
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

/** decisionLimitSchema is the binding limit of a decision, with its RateLimit-Policy name. */
export const decisionLimitSchema = limitShapeSchema.extend({ policy: z.string() }).strict();

/** DecisionLimit is the binding limit of a decision. */
export type DecisionLimit = z.infer<typeof decisionLimitSchema>;

/**
 * decisionQuotaSchema is one quota of a decision: its RateLimit-Policy name, its count for the
 * period (grants included), calendar period and zone, the tokens `used` in the period before
 * the decision and those `remaining` after it, the period `[periodStartMs, periodEndMs)` (ms
 * since 1970) and `resetAfterMs` until it ends (whole ms, rounded up).
 */
export const decisionQuotaSchema = z
  .object({
    policy: z.string(),
    count: z.number().int().positive(),
    period: z.enum(QUOTA_PERIODS),
    timeZone: z.string(),
    used: z.number().int().nonnegative(),
    remaining: z.number().int().nonnegative(),
    periodStartMs: z.number().int(),
    periodEndMs: z.number().int(),
    resetAfterMs: z.number().int().nonnegative(),
  })
  .strict();

/** DecisionQuota is one quota of a decision, as the decision API reports it. */
export type DecisionQuota = z.infer<typeof decisionQuotaSchema>;

/**
 * decisionAnswerSchema is one answer of the decision API: the outcome and why, the HTTP `status`
 * the caller should answer its own client, the customer (null when the key or id names none),
 * the binding limit and its bucket's tokens `remaining` (null with no limits or no customer), and
 * the exact header fields and problem body (null when allowed) to send the client. Times are
 * whole ms, rounded up so a caller who waits them is never early: `resetAfterMs` until the
 * binding bucket is full again, `retryAfterMs` 0 when allowed and null when waiting cannot help
 * (cost_exceeds_limit, no customer). `limit`, `remaining` and `resetAfterMs` are the binding
 * bucket's; `quotas` (present only when the customer's limits for the class have quotas) reports
 * each quota, whose refusal names it in the problem and the RateLimit fields.
 */
export const decisionAnswerSchema = z
  .object({
    allowed: z.boolean(),
    reason: decisionReasonSchema,
    status: z.number().int(),
    customer: customerSummarySchema.nullable(),
    operation: classNameSchema,
    cost: z.number().int().positive(),
    remaining: z.number().nonnegative().nullable(),
    limit: decisionLimitSchema.nullable(),
    resetAfterMs: z.number().int().nonnegative().nullable(),
    retryAfterMs: z.number().int().nonnegative().nullable(),
    headers: z.record(z.string(), z.string()),
    problem: problemSchema.nullable(),
    quotas: z.array(decisionQuotaSchema).optional(),
  })
  .strict();

/** DecisionAnswer is one answer of the decision API (see decisionAnswerSchema). */
export type DecisionAnswer = z.infer<typeof decisionAnswerSchema>;

/** decisionBatchAnswerSchema is a batch's answer: each decision's, in the order asked. */
export const decisionBatchAnswerSchema = z
  .object({ results: z.array(decisionAnswerSchema) })
  .strict();

/** DecisionBatchAnswer is a batch's answer. */
export type DecisionBatchAnswer = z.infer<typeof decisionBatchAnswerSchema>;

/**
 * serviceTokenAnswerSchema is the answer of GET /api/v1/service-token: the calling token as
 * Ratekeeper knows it, by id, name, the 12-character prefix (never the token) and its scopes in
 * SERVICE_TOKEN_SCOPES order. A service checks it at start-up (the SDK's `verify()`).
 */
export const serviceTokenAnswerSchema = z
  .object({
    serviceToken: z
      .object({
        id: z.number().int().positive(),
        name: z.string(),
        prefix: z.string(),
        scopes: z.array(z.enum(SERVICE_TOKEN_SCOPES)),
      })
      .strict(),
  })
  .strict();

/** ServiceTokenAnswer is the answer of GET /api/v1/service-token. */
export type ServiceTokenAnswer = z.infer<typeof serviceTokenAnswerSchema>;
