import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/v1/items/route";
import { replaceOverride } from "@/db/queries/customers";
import { replacePlanLimits } from "@/db/queries/plans";
import { DEMO_PLANS } from "@/db/seed";
import { api, createTestRuntime, START_MS, type TestRuntime } from "../../../support/runtime";

const FREE_READ_POLICY = '"read-5-per-1s";q=5;w=1, "read-100-per-1m";q=100;w=60';
const HOUR = 3_600_000;

describe("items API: policy edits apply to the next request", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
  });
  afterEach(() => t.cleanup());

  const read = () => GET(api("/api/v1/items", { key: t.demoKey }));

  it("applies an edit of the plan's limits to the very next decision", async () => {
    const before = await read();
    expect(before.headers.get("RateLimit")).toBe('"read-5-per-1s";r=4;t=1');
    const free = DEMO_PLANS[0]?.limits ?? [];
    const writes = free.filter((l) => l.operation === "write");
    replacePlanLimits(
      t.runtime.db,
      t.planId("free"),
      [{ operation: "read", count: 1, periodMs: HOUR }, ...writes],
      t.clock.now(),
    );
    t.runtime.policy.applyEdit();
    const after = await read();
    expect(after.status).toBe(200);
    expect(after.headers.get("RateLimit-Policy")).toBe('"read-1-per-1h";q=1;w=3600');
    expect(after.headers.get("RateLimit")).toBe('"read-1-per-1h";r=0;t=3600');
    const refused = await read();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("3600");
    // Restoring the old limits finds their buckets as they were left: no refill by toggling.
    replacePlanLimits(t.runtime.db, t.planId("free"), free, t.clock.now());
    t.runtime.policy.applyEdit();
    const restored = await read();
    expect(restored.status).toBe(200);
    expect(restored.headers.get("RateLimit-Policy")).toBe(FREE_READ_POLICY);
    expect(restored.headers.get("RateLimit")).toBe('"read-5-per-1s";r=3;t=1');
  });

  it("applies an override until its expiry, then the plan's limits again", async () => {
    const expiresAt = START_MS + 10 * 60_000;
    const limits = [{ count: 2, periodMs: HOUR }];
    replaceOverride(t.runtime.db, t.demoId, "read", limits, expiresAt, t.clock.now());
    t.runtime.policy.applyEdit();
    const first = await read();
    expect(first.headers.get("RateLimit-Policy")).toBe('"read-2-per-1h";q=2;w=3600');
    expect(first.headers.get("RateLimit")).toBe('"read-2-per-1h";r=1;t=1800');
    expect((await read()).headers.get("RateLimit")).toBe('"read-2-per-1h";r=0;t=1800');
    const refused = await read();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("1800");
    // Writes keep the plan's limits: the override names reads only.
    const write = await POST(api("/api/v1/items", { key: t.demoKey, body: { name: "a" } }));
    expect(write.status).toBe(201);
    expect(write.headers.get("RateLimit-Policy")).toBe(
      '"write-1-per-1s";q=1;w=1, "write-20-per-1m";q=20;w=60',
    );
    // One millisecond before expiry the override still holds (1,200,001 ms to wait)...
    t.clock.set(expiresAt - 1);
    const lastMs = await read();
    expect(lastMs.status).toBe(429);
    expect(lastMs.headers.get("Retry-After")).toBe("1201");
    // ...and at expiry, with no reload, the plan's limits apply again.
    t.clock.set(expiresAt);
    const lapsed = await read();
    expect(lapsed.status).toBe(200);
    expect(lapsed.headers.get("RateLimit-Policy")).toBe(FREE_READ_POLICY);
    expect(lapsed.headers.get("RateLimit")).toBe('"read-5-per-1s";r=4;t=1');
  });
});
