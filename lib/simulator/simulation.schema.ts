import { z } from "zod";
import { costSchema } from "@/lib/schemas/cost.schema";
import { limitRowSchema } from "@/lib/schemas/limit.schema";
import { MAX_SIMULATED_REQUESTS, MAX_SIMULATED_SECONDS, requestCount } from "./pattern";

const seconds = z
  .number({ error: "Enter a number of seconds" })
  .int("Use whole seconds")
  .min(1, "At least 1 second")
  .max(MAX_SIMULATED_SECONDS, "At most a day (86,400 seconds)");
const TIMESTAMP_RULE = `Timestamps must be whole milliseconds from 0 to ${(MAX_SIMULATED_SECONDS * 1000).toLocaleString("en-US")} (a day)`;
const rate = (what: string) =>
  z
    .number({ error: `Enter ${what}` })
    .min(0, "Must be 0 or more")
    .max(MAX_SIMULATED_REQUESTS, "Too many requests a second");

/** simulatedPatternSchema validates a traffic pattern and caps the requests it makes. */
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
        .int("Use a whole number")
        .min(1, "At least 1 request")
        .max(MAX_SIMULATED_REQUESTS, "Burst too large"),
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
        message: `This pattern makes ${n.toLocaleString("en-US")} requests; the simulator takes at most ${MAX_SIMULATED_REQUESTS.toLocaleString("en-US")}`,
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
  limits: z.array(limitRowSchema.omit({ operation: true }).strict()).max(20, "At most 20 limits"),
  pattern: simulatedPatternSchema,
  cost: costSchema,
});

/** SimulationInput is a validated simulation. */
export type SimulationInput = z.infer<typeof simulationSchema>;
