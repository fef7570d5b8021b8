import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseQuery } from "@/lib/http/body";

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
