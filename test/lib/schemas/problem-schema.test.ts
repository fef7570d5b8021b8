import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsOf, problemDocument, problemSchema } from "@/lib/schemas/problem.schema";

const PROTOTYPE_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

describe("fieldErrorsOf", () => {
  // Regression: the error map was a plain object, so `errors["toString"] ??= []` found
  // Object.prototype.toString and pushing to it threw: a 500 instead of a 400.
  it.each(PROTOTYPE_KEYS)("reports an unknown key named %s as a field", (key) => {
    const schema = z.object({ name: z.string() }).strict();
    const parsed = schema.safeParse(JSON.parse(`{"name":"x","${key}":1}`));
    expect(parsed.success).toBe(false);
    const errors = fieldErrorsOf((parsed as { error: z.ZodError }).error);
    expect(Object.keys(errors)).toEqual([key]);
    expect(errors[key]).toEqual(["Unknown field"]);
    expect(JSON.parse(JSON.stringify({ errors }))).toEqual(
      JSON.parse(`{"errors":{"${key}":["Unknown field"]}}`),
    );
  });

  it("keeps messages of a field whose path is a prototype member name", () => {
    const schema = z.object({ constructor: z.number() });
    const parsed = schema.safeParse({ constructor: "x" });
    const errors = fieldErrorsOf((parsed as { error: z.ZodError }).error);
    expect(Object.keys(errors)).toEqual(["constructor"]);
  });
});

describe("problemDocument", () => {
  it("writes type, title and status first, then the extension members in their order", () => {
    expect(JSON.stringify(problemDocument(404, "Not found", { detail: "No such plan." }))).toBe(
      '{"type":"about:blank","title":"Not found","status":404,"detail":"No such plan."}',
    );
  });

  it("lets a registered problem type replace about:blank without moving it", () => {
    const doc = problemDocument(429, "Too many requests", { type: "urn:x", detail: "d" });
    expect(Object.keys(doc)).toEqual(["type", "title", "status", "detail"]);
    expect(problemSchema.parse(doc)).toEqual({ ...doc, type: "urn:x" });
  });
});
