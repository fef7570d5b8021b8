import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  customerCreateSchema,
  customerUpdateSchema,
  MAX_EXPIRY_MS,
  overrideSchema,
  testRequestSchema,
} from "@/lib/schemas/customer.schema";
import { decisionRequestSchema } from "@/lib/schemas/decision.schema";
import { limitRowSchema } from "@/lib/schemas/limit.schema";
import { simulationSchema } from "@/lib/simulator/simulation.schema";

// Every number an operator or a service types is refused in the product's words. Zod's own
// messages ("Too big: expected int to be <=9007199254740991", "Invalid input: expected number,
// received string") say nothing to someone who did not write the schema.

/** ZOD_WORDS are how zod's default English messages begin. */
const ZOD_WORDS =
  /^(Invalid input|Invalid option|Invalid (number|string|key|element|union)|Too (big|small)|Expected )/;

/** HOSTILE are numbers out of every range, and things that are not numbers. */
const HOSTILE: unknown[] = [1e20, -1e20, 2 ** 53, 1.5, -1, 0, "1", null, true, [], {}];

const limits = [{ count: 1, periodMs: 1_000 }];
const simulation = (pattern: object) => ({ limits: [], cost: 1, pattern });

/** FIELDS are the number fields people fill in, each as the body that carries `value` there. */
const FIELDS: [string, z.ZodType, (value: unknown) => unknown][] = [
  ["customer planId", customerCreateSchema, (planId) => ({ name: "a", planId })],
  ["customer edit planId", customerUpdateSchema, (planId) => ({ planId })],
  ["override expiresAt", overrideSchema, (expiresAt) => ({ limits, expiresAt })],
  ["override count", overrideSchema, (count) => ({ limits: [{ count, periodMs: 1_000 }] })],
  ["override periodMs", overrideSchema, (periodMs) => ({ limits: [{ count: 1, periodMs }] })],
  ["limit count", limitRowSchema, (count) => ({ operation: "read", count, periodMs: 1_000 })],
  ["limit periodMs", limitRowSchema, (periodMs) => ({ operation: "read", count: 1, periodMs })],
  ["test request cost", testRequestSchema, (cost) => ({ operation: "read", cost })],
  [
    "decision customerId",
    decisionRequestSchema,
    (customerId) => ({ customerId, operation: "read" }),
  ],
  ["decision cost", decisionRequestSchema, (cost) => ({ key: "k", operation: "read", cost })],
  [
    "simulated steady rate",
    simulationSchema,
    (ratePerSecond) => simulation({ kind: "steady", ratePerSecond, seconds: 1 }),
  ],
  [
    "simulated seconds",
    simulationSchema,
    (seconds) => simulation({ kind: "steady", ratePerSecond: 1, seconds }),
  ],
  [
    "simulated burst size",
    simulationSchema,
    (size) => simulation({ kind: "bursts", size, everySeconds: 1, seconds: 1 }),
  ],
  [
    "simulated burst interval",
    simulationSchema,
    (everySeconds) => simulation({ kind: "bursts", size: 1, everySeconds, seconds: 1 }),
  ],
  [
    "simulated ramp rate",
    simulationSchema,
    (fromPerSecond) => simulation({ kind: "ramp", fromPerSecond, toPerSecond: 1, seconds: 1 }),
  ],
  [
    "simulated timestamp",
    simulationSchema,
    (offset) => simulation({ kind: "timestamps", offsetsMs: [offset] }),
  ],
];

describe("messages for numbers", () => {
  it.each(FIELDS)("refuses a bad %s in the product's words, never zod's", (_, schema, body) => {
    for (const value of HOSTILE) {
      const parsed = schema.safeParse(body(value));
      if (parsed.success) continue;
      for (const issue of parsed.error.issues) {
        expect(issue.message, `${JSON.stringify(value)} at ${issue.path.join(".")}`).not.toMatch(
          ZOD_WORDS,
        );
      }
    }
  });

  // Regression: a count of 99999999999999999999 (past 2^53, so not held as a whole number)
  // read "Count must be a whole number"; it is too large.
  it("tells a count, a period or a simulated size past its bound only the bound", () => {
    const messages = (schema: z.ZodType, value: unknown) => {
      const parsed = schema.safeParse(value);
      return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
    };
    expect(messages(limitRowSchema, { operation: "read", count: 1e20, periodMs: 1_000 })).toEqual([
      "Count must be at most 1,000,000",
    ]);
    expect(messages(limitRowSchema, { operation: "read", count: 1, periodMs: 1e20 })).toEqual([
      "Period must be at most 30 days",
    ]);
    expect(messages(limitRowSchema, { operation: "read", count: 1.5, periodMs: 1_000 })).toEqual([
      "Count must be a whole number",
    ]);
    const steady = (seconds: number) => simulation({ kind: "steady", ratePerSecond: 1, seconds });
    expect(messages(simulationSchema, steady(1e20))).toEqual(["At most a day (86,400 seconds)"]);
    const bursts = (size: number) =>
      simulation({ kind: "bursts", size, everySeconds: 1, seconds: 1 });
    expect(messages(simulationSchema, bursts(1e20))).toEqual(["At most 200,000 requests a burst"]);
  });

  // Regression: a huge rate read "Too many requests a second" beside "This pattern makes
  // 1,000,000,000,000,000,000,000 requests"; a huge burst "Burst too large". Each says its bound,
  // and a pattern too large as a whole says how to make it smaller.
  it("tells the simulator's rates, bursts and patterns past the cap how many it takes", () => {
    const messages = (pattern: object) => {
      const parsed = simulationSchema.safeParse(simulation(pattern));
      return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
    };
    expect(messages({ kind: "steady", ratePerSecond: 1e20, seconds: 10 })).toEqual([
      "At most 200,000 requests a second",
    ]);
    expect(messages({ kind: "ramp", fromPerSecond: 1, toPerSecond: 1e20, seconds: 10 })).toEqual([
      "At most 200,000 requests a second",
    ]);
    expect(messages({ kind: "bursts", size: 300_000, everySeconds: 1, seconds: 1 })).toEqual([
      "At most 200,000 requests a burst",
    ]);
    expect(messages({ kind: "steady", ratePerSecond: 100_000, seconds: 86_400 })).toEqual([
      "This pattern makes 8,640,000,000 requests; the simulator runs at most 200,000: lower the rate or shorten the time",
    ]);
    expect(messages({ kind: "bursts", size: 1_000, everySeconds: 1, seconds: 3_600 })).toEqual([
      "This pattern makes 3,600,000 requests; the simulator runs at most 200,000: make the bursts smaller or further apart, or shorten the time",
    ]);
  });

  // Regression: 1e20 was answered "Too big: expected int to be <=9007199254740991".
  it("answers an override expiring at 1e20 ms, or past the year 9999, in words", () => {
    const messages = (expiresAt: unknown) => {
      const parsed = overrideSchema.safeParse({ limits, expiresAt });
      return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
    };
    expect(messages(1e20)).toEqual(["Expiry must be no later than the year 9999"]);
    expect(messages(1.5)).toEqual([
      "Expiry must be a whole number of milliseconds since 1970 (UTC), or null for none",
    ]);
    expect(messages(MAX_EXPIRY_MS + 1)).toEqual(["Expiry must be no later than the year 9999"]);
    expect(messages("tomorrow")).toEqual([
      "Expiry must be a whole number of milliseconds since 1970 (UTC), or null for none",
    ]);
    expect(messages(MAX_EXPIRY_MS)).toEqual([]);
    expect(new Date(MAX_EXPIRY_MS).toISOString()).toBe("9999-12-31T23:59:59.999Z");
  });
});
