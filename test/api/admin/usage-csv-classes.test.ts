import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as csv } from "@/app/api/admin/usage.csv/route";
import { createClass } from "@/lib/admin/classes";
import { decide } from "@/lib/policy/decide";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import { DAY_MS } from "@/lib/usage/time";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";
import { adminRequest, signIn } from "./admin-support";

describe("the usage CSV and operation classes", () => {
  let t: TestRuntime;
  let cookie: string;
  beforeEach(async () => {
    t = createTestRuntime();
    cookie = await signIn();
  });
  afterEach(() => t.cleanup());

  it("has a row per class, any class, with its quota's refusals as denials, and filters by class", async () => {
    expect(createClass(t.runtime, "admin", { name: "exports", description: "" }).ok).toBe(true);
    t.addPlan("exporter", [
      { operation: "read", count: 100, periodMs: 1_000 },
      { operation: "exports", count: 2, period: "month" },
    ]);
    const { id } = t.addCustomer("exporter", "Export Co");
    const customer = t.runtime.policy.snapshot.byId.get(id) as CustomerPolicy;
    for (let i = 0; i < 3; i++) await decide(t.runtime, customer, "exports", 1);
    await decide(t.runtime, customer, "read", 1);
    await t.runtime.usage.flush();

    const get = async (query: string) => {
      const res = await csv(adminRequest(`/api/admin/usage.csv${query}`, { cookie }));
      expect(res.status).toBe(200);
      return (await res.text()).split("\r\n");
    };
    const range = `?from=${START_MS}&to=${START_MS + DAY_MS}&customerId=${id}`;
    expect(await get(range)).toEqual([
      "date,customer_id,customer,plan,operation,allowed,denied,unavailable,tokens_requested,tokens_taken,too_large",
      `2025-01-01,${id},Export Co,exporter,exports,2,1,0,3,2,0`,
      `2025-01-01,${id},Export Co,exporter,read,1,0,0,1,1,0`,
      "",
    ]);
    expect((await get(`${range}&operation=exports`)).slice(1)).toEqual([
      `2025-01-01,${id},Export Co,exporter,exports,2,1,0,3,2,0`,
      "",
    ]);
  });
});
