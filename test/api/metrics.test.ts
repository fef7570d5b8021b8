import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as metrics } from "@/app/api/metrics/route";
import { GET, POST } from "@/app/api/v1/items/route";
import { api, createTestRuntime, type TestRuntime } from "../support/runtime";

/** series returns the exposition's sample lines for one metric name, in order. */
function series(text: string, name: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

describe("GET /api/metrics", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
  });
  afterEach(() => t.cleanup());

  it("counts decisions by plan, operation and outcome, and the buckets held", async () => {
    const pro = t.addCustomer("pro");
    for (let i = 0; i < 6; i++) await GET(api("/api/v1/items", { key: t.demoKey }));
    await POST(api("/api/v1/items", { key: t.demoKey, body: { name: "a" } }));
    await POST(api("/api/v1/items", { key: pro.key, body: { name: "b" } }));
    // Neither an unknown key nor an invalid body reaches a decision.
    await GET(api("/api/v1/items", { key: "rk_nobody" }));
    await POST(api("/api/v1/items", { key: pro.key, body: { name: 1 } }));

    const response = await metrics();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe(t.runtime.metrics.registry.contentType);
    const text = await response.text();
    expect(series(text, "ratekeeper_decisions_total")).toEqual([
      'ratekeeper_decisions_total{plan="free",operation="read",outcome="allowed"} 5',
      'ratekeeper_decisions_total{plan="free",operation="read",outcome="denied"} 1',
      'ratekeeper_decisions_total{plan="free",operation="write",outcome="allowed"} 1',
      'ratekeeper_decisions_total{plan="pro",operation="write",outcome="allowed"} 1',
    ]);
    // Two limits per operation: free read, free write and pro write hold two buckets each.
    expect(series(text, "ratekeeper_buckets")).toEqual(["ratekeeper_buckets 6"]);
    expect(text).toContain("# TYPE ratekeeper_decisions_total counter");
    expect(text).toContain("# TYPE ratekeeper_buckets gauge");

    // A minute later every bucket is full again; a sweep drops them and the gauge follows.
    t.clock.advance(60_000);
    expect(t.runtime.limiter.gc()).toBe(6);
    expect(series(await (await metrics()).text(), "ratekeeper_buckets")).toEqual([
      "ratekeeper_buckets 0",
    ]);
  });

  it("times decisions by store and reports the usage flush's health", async () => {
    for (let i = 0; i < 3; i++) await GET(api("/api/v1/items", { key: t.demoKey }));
    let text = await (await metrics()).text();
    expect(series(text, "ratekeeper_decision_duration_seconds_count")).toEqual([
      'ratekeeper_decision_duration_seconds_count{store="memory"} 3',
    ]);
    expect(text).toContain("# TYPE ratekeeper_decision_duration_seconds histogram");
    expect(series(text, "ratekeeper_usage_pending_rows")).toEqual([
      "ratekeeper_usage_pending_rows 1",
    ]);
    // Before the first flush, the age counts from the start.
    t.clock.advance(1_000);
    text = await (await metrics()).text();
    expect(series(text, "ratekeeper_usage_last_flush_age_seconds")).toEqual([
      "ratekeeper_usage_last_flush_age_seconds 1",
    ]);

    // A flush that SQLite refuses counts a failure and keeps its counts for the next one.
    t.runtime.sqlite.pragma("query_only = ON");
    expect(await t.runtime.usage.flush()).toBe(0);
    t.runtime.sqlite.pragma("query_only = OFF");
    text = await (await metrics()).text();
    expect(series(text, "ratekeeper_usage_flush_failures_total")).toEqual([
      'ratekeeper_usage_flush_failures_total{sink="sqlite"} 1',
    ]);
    expect(series(text, "ratekeeper_usage_pending_rows")).toEqual([
      "ratekeeper_usage_pending_rows 1",
    ]);

    expect(await t.runtime.usage.flush()).toBe(1);
    t.clock.advance(2_500);
    text = await (await metrics()).text();
    expect(series(text, "ratekeeper_usage_flush_rows_total")).toEqual([
      'ratekeeper_usage_flush_rows_total{sink="sqlite"} 1',
    ]);
    expect(series(text, "ratekeeper_usage_last_flush_age_seconds")).toEqual([
      "ratekeeper_usage_last_flush_age_seconds 2.5",
    ]);
    expect(series(text, "ratekeeper_usage_pending_rows")).toEqual([
      "ratekeeper_usage_pending_rows 0",
    ]);
  });
});
