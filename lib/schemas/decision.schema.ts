import { z } from "zod";
import { OPERATIONS } from "@/lib/vocabulary";
import { costSchema } from "./cost.schema";
import { ANY_OBJECT } from "./every-error";

/** MAX_BATCH_DECISIONS is the most decisions one batch may ask for: 1,000. */
export const MAX_BATCH_DECISIONS = 1_000;

/**
 * decisionRequestSchema is one decision asked of the decision API: the customer by API `key` or
 * by `customerId` (exactly one), the `operation`, a `cost` in tokens (a whole number from 1 to
 * MAX_COST, 1 by default: see cost.schema.ts) and `peek` (decide without taking, false by default).
 * A body's errors are all reported at once, the customer's with the fields'.
 */
export const decisionRequestSchema = z
  .object(
    {
      key: z
        .string({ error: "key must be a string" })
        .min(1, "key must not be empty")
        .max(256, "key must be at most 256 characters")
        .optional(),
      customerId: z
        .number({ error: "customerId must be a number" })
        .int("customerId must be a whole number (a safe integer)")
        .positive("customerId must be positive")
        .optional(),
      operation: z.enum(OPERATIONS, { error: "operation must be read or write" }),
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
/** DecisionBatch is a validated batch. */
export type DecisionBatch = z.infer<typeof decisionBatchSchema>;
