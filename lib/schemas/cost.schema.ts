import { z } from "zod";
import { MAX_COUNT } from "./limit.schema";

// The one rule for what a request may cost, on every surface: the decision API, protect(), the
// gateway, the dashboard's test request and the simulator (the SDK mirrors it, a test holds the
// two equal). `decide` refuses any other cost, so nothing can be counted beyond the ceiling.

/**
 * MAX_COST is the most tokens one request may cost: 1,000,000, the largest count a limit may
 * have (MAX_COUNT), so a dearer request could pass no bucket of any plan or override.
 */
export const MAX_COST = MAX_COUNT;

/** COST_RULE is the rule in words, the one message every surface gives for a bad cost. */
export const COST_RULE = `Cost must be a whole number from 1 to ${MAX_COST.toLocaleString("en-US")}`;

/** isCost reports whether `value` is a cost: a whole number from 1 to MAX_COST. */
export function isCost(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_COST;
}

/** costSchema accepts a cost (see isCost) and refuses anything else with COST_RULE, once. */
export const costSchema = z.number({ error: COST_RULE }).refine(isCost, COST_RULE);
