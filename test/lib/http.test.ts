import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseQuery } from "@/lib/http";
import { fieldErrorsOf } from "@/lib/schemas/problem.schema";

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

describe("parseQuery", () => {
  const schema = z.object({ limit: z.string().optional() }).strict();
  const request = (query: string) => new Request(`http://test/x${query}`);

  it("hands each parameter to the schema as a string", () => {
    expect(parseQuery(request("?limit=5"), schema)).toEqual({ ok: true, data: { limit: "5" } });
    expect(parseQuery(request(""), schema)).toEqual({ ok: true, data: {} });
  });

  it("refuses a parameter given twice, unknown parameters and prototype names with a 400", async () => {
    for (const query of ["?limit=1&limit=2", "?x=1", "?__proto__=1", "?toString=1"]) {
      const parsed = parseQuery(request(query), schema);
      expect(parsed.ok, query).toBe(false);
      const response = (parsed as { response: Response }).response;
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const { errors } = await response.json();
      expect(Object.keys(errors)).toHaveLength(1);
    }
  });
});
