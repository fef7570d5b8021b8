import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createClass } from "@/lib/admin/classes";
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

/** exporting is a protected route that draws from the "exports" class, whatever its method. */
const exporting = protect({ operation: "exports" }, () => json({ exported: true }));

/** chosen is a protected route whose class is named by its body. */
const chosen = protect(
  { body: z.object({ kind: z.string() }), operation: (body) => body.kind },
  ({ body }) => json({ kind: body.kind }),
);

describe("protect() and operation classes", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
  });
  afterEach(() => t.cleanup());

  it("decides on the route's class, on its own bucket, once the class exists", async () => {
    const { key } = t.addCustomer("free");
    // No such class yet: a 400 naming it, and nothing taken.
    const refused = await exporting(api("/api/v1/export", { key }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors).toEqual({
      operation: ['Unknown class "exports": use one of read, write.'],
    });
    expect(t.runtime.limiter.size).toBe(0);

    expect(createClass(t.runtime, "admin", { name: "exports", description: "" }).ok).toBe(true);
    t.addPlan("exporters", [{ operation: "exports", count: 1, periodMs: 3_600_000 }]);
    const exporter = t.addCustomer("exporters");
    const first = await exporting(api("/api/v1/export", { key: exporter.key }));
    expect(first.status).toBe(200);
    expect(first.headers.get("RateLimit")).toBe('"exports-1-per-1h";r=0;t=3600');
    expect((await exporting(api("/api/v1/export", { key: exporter.key }))).status).toBe(429);
  });

  it("takes a class derived from the body, and refuses one the policy does not have", async () => {
    const { key } = t.addCustomer("free");
    const read = await chosen(api("/api/v1/chosen", { key, body: { kind: "read" } }));
    expect(read.status).toBe(200);
    expect(read.headers.get("RateLimit")).toBe('"read-5-per-1s";r=4;t=1');
    const size = t.runtime.limiter.size;
    const unknown = await chosen(api("/api/v1/chosen", { key, body: { kind: "imports" } }));
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).errors.operation).toEqual([
      'Unknown class "imports": use one of read, write.',
    ]);
    expect(t.runtime.limiter.size).toBe(size);
  });
});
