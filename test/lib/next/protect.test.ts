import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { json } from "@/lib/http/response";
import { protect } from "@/lib/next/protect";
import { COST_RULE, MAX_COST } from "@/lib/schemas/cost.schema";
import { api, createTestRuntime, type TestRuntime } from "../../support/runtime";

/** priced is a protected write whose cost is the body's `units`, whatever it is. */
const priced = protect(
  { body: z.object({ units: z.number() }), cost: (body) => body.units },
  ({ body }) => json({ charged: body.units }),
);

describe("protect() and the cost rule", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
    t.addPlan("bulk", [{ operation: "write", count: MAX_COST, periodMs: 3_600_000 }]);
  });
  afterEach(() => t.cleanup());

  // Regression: protect() passed any cost its route derived to the decision (0 admitted for
  // nothing; 1e12 a 413 counted as 1e12 tokens requested).
  it("answers 400 at cost, in the rule's words, for a derived cost outside it; nothing is taken", async () => {
    const { key } = t.addCustomer("bulk");
    for (const units of [0, -2, 1.5, MAX_COST + 1, 1e12]) {
      const res = await priced(api("/api/v1/priced", { key, body: { units } }));
      expect(res.status, String(units)).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const problem = await res.json();
      expect(problem.errors.cost).toEqual([`${COST_RULE}; this request would cost ${units}`]);
      // Like any refusal after authentication, it tells the client where its limits stand.
      expect(res.headers.get("RateLimit")).toBe(`"write-1000000-per-1h";r=${MAX_COST};t=0`);
    }
    expect(t.runtime.limiter.size).toBe(0);
    const ok = await priced(api("/api/v1/priced", { key, body: { units: MAX_COST } }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ charged: MAX_COST });
  });
});
