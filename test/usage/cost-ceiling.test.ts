// A decision refused for its cost is never counted as more tokens requested than the one cost
// rule's ceiling (lib/schemas/cost.schema.ts), whichever surface asked.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as testRequest } from "@/app/api/admin/customers/[id]/test-request/route";
import { GET as usageCsv } from "@/app/api/admin/usage.csv/route";
import { decide } from "@/lib/policy/decide";
import { MAX_COST } from "@/lib/schemas/cost.schema";
import { adminRequest, params, signIn } from "../api/admin/admin-support";
import {
  type DataPlaneServer,
  postJson,
  serviceToken,
  startDataPlane,
} from "../support/data-plane";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { report, totalsOf } from "./usage-support";

const HOUR = 3_600_000;

describe("usage never counts a cost beyond the ceiling", () => {
  let t: TestRuntime;
  let server: DataPlaneServer;
  let token: string;
  let cookie: string;

  beforeEach(async () => {
    t = createTestRuntime();
    server = await startDataPlane(t.runtime);
    token = serviceToken(t.runtime).token;
    cookie = await signIn();
  });
  afterEach(async () => {
    await server.close();
    t.cleanup();
  });

  async function demoTotals() {
    await t.runtime.usage.flush();
    const hour = Math.floor(t.clock.now() / HOUR) * HOUR;
    return totalsOf(report(t.runtime, hour, hour + HOUR, "hour", { customerId: t.demoId }));
  }

  // Regression: a cost of 1e12 was answered 413 and then counted, so the usage API and the CSV
  // showed tokensRequested 1,000,000,000,308.
  it("a cost of 1e12 is a 400 on every surface and counts nothing; MAX_COST counts MAX_COST", async () => {
    const url = `${server.url}/api/v1/decisions`;
    const over = await postJson(url, { key: t.demoKey, operation: "read", cost: 1e12 }, token);
    expect(over.status).toBe(400);
    const overBatch = await postJson(
      `${url}/batch`,
      { decisions: [{ customerId: t.demoId, operation: "write", cost: 1e12 }] },
      token,
    );
    expect(overBatch.status).toBe(400);
    const overTest = await testRequest(
      adminRequest("/x", { cookie, body: { operation: "read", cost: 1e12 } }),
      params({ id: String(t.demoId) }),
    );
    expect(overTest.status).toBe(400);
    expect(await demoTotals()).toMatchObject({ allowed: 0, denied: 0, tokensRequested: 0 });

    // At the ceiling the free plan (5 reads a second) refuses for the cost: 413, counted apart
    // as too large, its cost not among the tokens requested (no limit could ever grant it).
    const atCeiling = await postJson(
      url,
      { key: t.demoKey, operation: "read", cost: MAX_COST },
      token,
    );
    expect(await atCeiling.json()).toMatchObject({ reason: "cost_exceeds_limit", status: 413 });
    expect(await demoTotals()).toMatchObject({
      denied: 0,
      tooLarge: 1,
      tokensRequested: 0,
      tokensTaken: 0,
    });
    const download = await usageCsv(
      adminRequest(`/api/admin/usage.csv?customerId=${t.demoId}`, { cookie }),
    );
    expect(download.status).toBe(200);
    const csv = await download.text();
    expect(csv).toMatch(/,read,0,0,0,0,0,1\r\n$/);
    expect(csv).not.toContain(String(MAX_COST));
    expect(csv).not.toContain(String(1e12));
  });

  it("decide itself refuses a cost outside the rule, before anything is taken or counted", async () => {
    const customer = t.runtime.policy.snapshot.byId.get(t.demoId);
    if (!customer) throw new Error("no demo customer");
    for (const cost of [0, -1, 1.5, MAX_COST + 1, 1e12]) {
      expect(() => decide(t.runtime, customer, "read", cost)).toThrow(RangeError);
      expect(() => decide(t.runtime, customer, "read", cost, { peek: true })).toThrow(RangeError);
    }
    expect(t.runtime.limiter.size).toBe(0);
    expect(await demoTotals()).toMatchObject({ allowed: 0, denied: 0, tokensRequested: 0 });
  });
});
