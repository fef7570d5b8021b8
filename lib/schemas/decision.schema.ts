import { z } from "zod";
import { costSchema, isCost } from "./cost.schema";
import { ANY_OBJECT } from "./every-error";
import { classNameSchema, isClassName } from "./operation-class.schema";

/** MAX_BATCH_DECISIONS is the most decisions one batch may ask for: 1,000. */
export const MAX_BATCH_DECISIONS = 1_000;
/** MAX_KEY_LENGTH is the longest API key a decision may name: 256 characters. */
export const MAX_KEY_LENGTH = 256;

/**
 * decisionRequestSchema is one decision asked of the decision API: the customer by API `key` or
 * by `customerId` (exactly one), the `operation` (a class's name: whether it exists is the
 * policy's to say, before any token is taken), a `cost` in tokens (a whole number from 1 to
 * MAX_COST, 1 by default: see cost.schema.ts) and `peek` (decide without taking, false by default).
 * A body's errors are all reported at once, the customer's with the fields'.
 */
export const decisionRequestSchema = z
  .object(
    {
      key: z
        .string({ error: "key must be a string" })
        .min(1, "key must not be empty")
        .max(MAX_KEY_LENGTH, `key must be at most ${MAX_KEY_LENGTH} characters`)
        .optional(),
      customerId: z
        .number({ error: "customerId must be a number" })
        .int("customerId must be a whole number (a safe integer)")
        .positive("customerId must be positive")
        .optional(),
      operation: classNameSchema,
      cost: costSchema.default(1),
      peek: z.boolean({ error: "peek must be true or false" }).default(false),
    },
    { error: "Send a JSON object" },
  )
  .strict()
  .superRefine(
    ({ key, customerId }, ctx) => {
      if (key !== undefined && customerId !== undefined) {
        ctx.addIssue({ code: "custom", path: [], message: "Send key or customerId, not both" });
      } else if (key === undefined && customerId === undefined) {
        ctx.addIssue({
          code: "custom",
          path: [],
          message: "Send the customer's key or its customerId",
        });
      }
    },
    // Regression: by default a refinement is skipped once a field has failed, so `{}` named
    // only `operation`, and the missing key came on the next try.
    ANY_OBJECT,
  );

/** decisionBatchSchema is a batch of 1 to 1,000 decisions, each decided on its own. */
export const decisionBatchSchema = z
  .object(
    {
      decisions: z
        .array(decisionRequestSchema, { error: "decisions must be a list" })
        .min(1, "Send at least one decision")
        .max(MAX_BATCH_DECISIONS, `Send at most ${MAX_BATCH_DECISIONS} decisions`),
    },
    { error: "Send a JSON object" },
  )
  .strict();

/** DecisionRequest is a validated decision request. */
export type DecisionRequest = z.infer<typeof decisionRequestSchema>;

/** DECISION_FIELDS are the fields a decision request may have, as the schema names them. */
export const DECISION_FIELDS: ReadonlySet<string> = new Set(
  Object.keys(decisionRequestSchema.shape),
);

/**
 * plainDecisionRequest checks a parsed body against decisionRequestSchema's rules by hand, for
 * the decision API's hot path: the request it accepts, exactly as the schema would give it (a
 * property test holds the two equal), or undefined for anything else, which the schema then
 * reads and explains. It never accepts what the schema refuses; it may pass on an odd valid body
 * (the schema then accepts it), never on a plain one.
 */
export function plainDecisionRequest(value: unknown): DecisionRequest | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  for (const name in body) if (!DECISION_FIELDS.has(name)) return undefined;
  const { key, customerId, operation, cost, peek } = body;
  if (key !== undefined) {
    if (customerId !== undefined || typeof key !== "string") return undefined;
    if (key.length < 1 || key.length > MAX_KEY_LENGTH) return undefined;
  } else if (!Number.isSafeInteger(customerId) || (customerId as number) <= 0) return undefined;
  if (!isClassName(operation)) return undefined;
  if (cost !== undefined && !isCost(cost)) return undefined;
  if (peek !== undefined && typeof peek !== "boolean") return undefined;
  const request: DecisionRequest = {
    operation: operation as DecisionRequest["operation"],
    cost: (cost as number | undefined) ?? 1,
    peek: (peek as boolean | undefined) ?? false,
  };
  if (key !== undefined) request.key = key;
  else request.customerId = customerId as number;
  return request;
}
/** DecisionBatch is a validated batch. */
export type DecisionBatch = z.infer<typeof decisionBatchSchema>;

/**
 * plainDecisionBatch is plainDecisionRequest for a batch: `{"decisions": [...]}` with 1 to
 * MAX_BATCH_DECISIONS plain requests, as decisionBatchSchema would give it, or undefined for the
 * schema to read and explain.
 */
export function plainDecisionBatch(value: unknown): DecisionBatch | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  for (const name in body) if (name !== "decisions") return undefined;
  const items = body.decisions;
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_BATCH_DECISIONS) {
    return undefined;
  }
  const decisions: DecisionRequest[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const request = plainDecisionRequest(items[i]);
    if (request === undefined) return undefined;
    decisions[i] = request;
  }
  return { decisions };
}
