import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { overrideSchema } from "@/lib/schemas/customer.schema";
import { decisionRequestSchema } from "@/lib/schemas/decision.schema";
import { planCreateSchema } from "@/lib/schemas/plan.schema";
import { fieldErrorsOf } from "@/lib/schemas/problem.schema";
import { serviceTokenCreateSchema } from "@/lib/schemas/service-token.schema";

/** errorsOf is what a 400 would name for `value`: its errors by field path. */
function errorsOf(schema: z.ZodType, value: unknown): Record<string, readonly string[]> {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected errors");
  return { ...fieldErrorsOf(parsed.error) };
}

const limit = { operation: "read", count: 10, periodMs: 1_000 };

// Regression: zod skips an object's or a list's own check once one of its parts has failed with
// a wrong type or an unknown option, so these errors came one fix at a time.
describe("a body's errors all come at once", () => {
  it("the decision's missing customer with its bad fields", () => {
    expect(errorsOf(decisionRequestSchema, {})).toEqual({
      operation: ["operation must be the name of a class, such as read or write"],
      "": ["Send the customer's key or its customerId"],
    });
    expect(errorsOf(decisionRequestSchema, [])).toEqual({ "": ["Send a JSON object"] });
  });

  it("a plan's duplicate limit with a row of unknown operation", () => {
    const body = { slug: "a", name: "a", limits: [limit, limit, { ...limit, operation: "X!" }] };
    expect(Object.keys(errorsOf(planCreateSchema, body)).sort()).toEqual([
      "limits.1",
      "limits.2.operation",
    ]);
    expect(errorsOf(planCreateSchema, body)["limits.1"]).toEqual(["Duplicate limit"]);
  });

  it("an override's duplicate and its lack of an enforced limit with a row of bad count", () => {
    const dry = { count: 1, periodMs: 1, dryRun: true };
    expect(errorsOf(overrideSchema, { limits: [dry, dry, { ...dry, count: "x" }] })).toEqual({
      "limits.2.count": ["Count must be a number"],
      "limits.1": ["Duplicate limit"],
      limits: ["Keep at least one enforced limit: dry-run limits alone would lift the plan's"],
    });
  });

  it("rows of a wrong type, or with a field of one, leave the list's check alone", () => {
    const limits = [
      { ...limit, dryRun: "yes" },
      { ...limit, dryRun: true },
    ];
    expect(errorsOf(planCreateSchema, { slug: "a", name: "a", limits })).toEqual({
      "limits.0.dryRun": ["Dry run must be true or false"],
    });
    expect(errorsOf(overrideSchema, { limits: [null, 3] })).toEqual({
      "limits.0": ["Invalid input: expected object, received null"],
      "limits.1": ["Invalid input: expected object, received number"],
    });
  });

  it("a service token's repeated scope with an unknown one", () => {
    expect(
      errorsOf(serviceTokenCreateSchema, { name: "a", scopes: ["decide", "decide", "x"] }),
    ).toEqual({
      "scopes.2": ['Unknown scope "x": the scopes are decide and peek'],
      scopes: ["Name each scope once"],
    });
  });
});
