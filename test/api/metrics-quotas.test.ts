import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as metrics } from "@/app/api/metrics/route";
import { GET } from "@/app/api/v1/items/route";
import { api, createTestRuntime, type TestRuntime } from "../support/runtime";

/** series returns the exposition's sample lines for one metric name, in order. */
function series(text: string, name: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

describe("GET /api/metrics: quota refusals", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
  });
  afterEach(() => t.cleanup());

  // Regression: a quota's refusal counted as a denied decision only, like a bucket's, so nothing
  // told a customer out of its month from one that will pass again in a second.
  it("counts decisions refused by a quota by plan, operation and period, and not a bucket's", async () => {
    t.addPlan("metered", [
      { operation: "read", count: 100, periodMs: 1_000 },
      { operation: "read", count: 3, period: "day" },
    ]);
    t.addPlan("bursty", [{ operation: "read", count: 1, periodMs: 60_000 }]);
    const metered = t.addCustomer("metered");
    const bursty = t.addCustomer("bursty");
    for (let i = 0; i < 5; i++) await GET(api("/api/v1/items", { key: metered.key }));
    for (let i = 0; i < 2; i++) await GET(api("/api/v1/items", { key: bursty.key }));

    const text = await (await metrics()).text();
    expect(series(text, "ratekeeper_decisions_total")).toEqual([
      'ratekeeper_decisions_total{plan="metered",operation="read",outcome="allowed"} 3',
      'ratekeeper_decisions_total{plan="metered",operation="read",outcome="denied"} 2',
      'ratekeeper_decisions_total{plan="bursty",operation="read",outcome="allowed"} 1',
      'ratekeeper_decisions_total{plan="bursty",operation="read",outcome="denied"} 1',
    ]);
    expect(series(text, "ratekeeper_quota_refusals_total")).toEqual([
      'ratekeeper_quota_refusals_total{plan="metered",operation="read",period="day"} 2',
    ]);
    expect(text).toContain("# TYPE ratekeeper_quota_refusals_total counter");
  });
});
