import { z } from "zod";

// The live view's decision counts as the admin API answers them: GET /api/admin/traffic, and
// each customer's recent traffic in the customers list.

const count = z.number().int().nonnegative();

/**
 * liveScopeSchema is whose decisions the live view counted: the whole fleet's (Redis) or this
 * instance's alone.
 */
export const liveScopeSchema = z.enum(["fleet", "instance"]);

/** LiveScope is whose decisions the live view counted: "fleet" or "instance". */
export type LiveScope = z.infer<typeof liveScopeSchema>;

/** decisionCountsSchema counts decisions allowed and denied over a span. */
export const decisionCountsSchema = z.object({ allowed: count, denied: count }).strict();

/** DecisionCounts are decisions allowed and denied over a span. */
export type DecisionCounts = z.infer<typeof decisionCountsSchema>;

/** trafficPointSchema is one second of decisions: `t` is the second's start (ms since 1970). */
export const trafficPointSchema = decisionCountsSchema.extend({ t: z.number().int() }).strict();

/** TrafficPoint is one second of decisions. */
export type TrafficPoint = z.infer<typeof trafficPointSchema>;

/** customerTrafficSchema is one customer's decisions over the span, with its name. */
export const customerTrafficSchema = decisionCountsSchema
  .extend({ customerId: z.number().int().positive(), name: z.string() })
  .strict();

/**
 * trafficAnswerSchema is GET /api/admin/traffic's answer: a point per second of the last
 * `seconds` before `now` (ms), and each customer's totals over them, most denied first; the whole
 * fleet's decisions (Redis, `scope: "fleet"`) or this instance's alone.
 */
export const trafficAnswerSchema = z
  .object({
    now: z.number().int(),
    seconds: z.number().int().positive(),
    scope: liveScopeSchema,
    points: z.array(trafficPointSchema),
    totals: z.array(customerTrafficSchema),
  })
  .strict();

/** TrafficAnswer is GET /api/admin/traffic's answer. */
export type TrafficAnswer = z.infer<typeof trafficAnswerSchema>;
