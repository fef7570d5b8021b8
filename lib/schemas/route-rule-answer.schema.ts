import { z } from "zod";
import { ROUTE_METHODS } from "./route-rule.schema";

/** ruleSchema is a route rule as answered: every field present, nulls for a default. */
const ruleSchema = z
  .object({
    method: z.enum(ROUTE_METHODS),
    pattern: z.string(),
    unmetered: z.boolean(),
    operation: z.string().nullable(),
    cost: z.number().int().positive().nullable(),
  })
  .strict();

/** storedRouteRuleSchema is a stored route rule with its times (ms since the epoch). */
export const storedRouteRuleSchema = ruleSchema
  .extend({ createdAt: z.number().int(), updatedAt: z.number().int() })
  .strict();

/** StoredRouteRuleView is a stored route rule as answered. */
export type StoredRouteRuleView = z.infer<typeof storedRouteRuleSchema>;

/**
 * routeRulesAnswerSchema is GET and PUT /api/admin/route-rules's answer: the rules in the order
 * they are tried, and the operation classes a rule may name.
 */
export const routeRulesAnswerSchema = z
  .object({ rules: z.array(storedRouteRuleSchema), classes: z.array(z.string()) })
  .strict();

/** RouteRulesAnswer is the route rules' answer. */
export type RouteRulesAnswer = z.infer<typeof routeRulesAnswerSchema>;

/**
 * routeTestAnswerSchema is POST /api/admin/route-rules/test's answer: the first rule the request
 * matches (its index from 0, and the rule) or null, and what the gateway does with it: unmetered,
 * or decided as `operation` at `cost` tokens.
 */
export const routeTestAnswerSchema = z
  .object({
    match: z
      .object({ index: z.number().int().nonnegative(), rule: ruleSchema })
      .strict()
      .nullable(),
    effect: z.union([
      z.object({ unmetered: z.literal(true) }).strict(),
      z
        .object({
          unmetered: z.literal(false),
          operation: z.string(),
          cost: z.number().int().positive(),
        })
        .strict(),
    ]),
  })
  .strict();

/** RouteTestAnswer is a route test's answer. */
export type RouteTestAnswer = z.infer<typeof routeTestAnswerSchema>;
