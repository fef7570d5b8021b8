import { z } from "zod";
import { costSchema } from "@/lib/schemas/cost.schema";
import { bucketRowSchema } from "@/lib/schemas/limit.schema";
import {
  MAX_SIMULATED_REQUESTS,
  MAX_SIMULATED_SECONDS,
  type Pattern,
  requestCount,
} from "./pattern";

/** MAX_WORDS is the cap on a simulation's requests, as the messages write it: "200,000". */
const MAX_WORDS = MAX_SIMULATED_REQUESTS.toLocaleString("en-US");

// A bound is checked first, and alone (abort): past 2^53 a number fails wholeness too, and past
// its bound the pattern's total is beside the point; the bound is what to say.
const seconds = z
  .number({ error: "Enter a number of seconds" })
  .max(MAX_SIMULATED_SECONDS, { error: "At most a day (86,400 seconds)", abort: true })
  .int("Use whole seconds")
  .min(1, "At least 1 second");
const TIMESTAMP_RULE = `Timestamps must be whole milliseconds from 0 to ${(MAX_SIMULATED_SECONDS * 1000).toLocaleString("en-US")} (a day)`;
const rate = (what: string) =>
  z
    .number({ error: `Enter ${what}` })
    .min(0, "Must be 0 or more")
    .max(MAX_SIMULATED_REQUESTS, {
      error: `At most ${MAX_WORDS} requests a second`,
      abort: true,
    });

/** FEWER says, per kind of pattern, how to make fewer requests. */
const FEWER: Record<Pattern["kind"], string> = {
  steady: "lower the rate or shorten the time",
  bursts: "make the bursts smaller or further apart, or shorten the time",
  ramp: "lower the rates or shorten the time",
  timestamps: "paste fewer timestamps",
};

/**
 * simulatedPatternSchema validates a traffic pattern and caps the requests it makes, each
 * refusal naming its bound. Regression: a burst of 10^20 read "Burst too large", a rate past
 * the cap "Too many requests a second", with no word of how many the simulator takes.
 */
export const simulatedPatternSchema = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("steady"),
      ratePerSecond: rate("a rate").positive("Rate must be more than 0"),
      seconds,
    }),
    z.object({
      kind: z.literal("bursts"),
      size: z
        .number({ error: "Enter a burst size" })
        .max(MAX_SIMULATED_REQUESTS, {
          error: `At most ${MAX_WORDS} requests a burst`,
          abort: true,
        })
        .int("Use a whole number")
        .min(1, "At least 1 request"),
      everySeconds: z
        .number({ error: "Enter an interval" })
        .min(0.001, "At least 1 millisecond")
        .max(MAX_SIMULATED_SECONDS, "At most a day"),
      seconds,
    }),
    z.object({
      kind: z.literal("ramp"),
      fromPerSecond: rate("a starting rate"),
      toPerSecond: rate("an ending rate"),
      seconds,
    }),
    z.object({
      kind: z.literal("timestamps"),
      offsetsMs: z
        .array(
          z
            .number({ error: TIMESTAMP_RULE })
            .int(TIMESTAMP_RULE)
            .min(0, TIMESTAMP_RULE)
            .max(MAX_SIMULATED_SECONDS * 1000, TIMESTAMP_RULE),
          { error: "Paste at least one timestamp" },
        )
        .min(1, "Paste at least one timestamp"),
    }),
  ])
  .superRefine((pattern, ctx) => {
    const n = requestCount(pattern);
    if (n > MAX_SIMULATED_REQUESTS) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: `This pattern makes ${n.toLocaleString("en-US")} requests; the simulator runs at most ${MAX_WORDS}: ${FEWER[pattern.kind]}`,
      });
    } else if (n === 0) {
      ctx.addIssue({ code: "custom", path: [], message: "This pattern makes no requests" });
    }
  });

/**
 * simulationSchema is a whole simulation: limits (none means unlimited), pattern and cost (under
 * the one cost rule, cost.schema.ts, as the server decides it).
 */
export const simulationSchema = z.object({
  limits: z.array(bucketRowSchema.omit({ operation: true }).strict()).max(20, "At most 20 limits"),
  pattern: simulatedPatternSchema,
  cost: costSchema,
});

/** SimulationInput is a validated simulation. */
export type SimulationInput = z.infer<typeof simulationSchema>;
