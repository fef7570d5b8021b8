import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as createBulk } from "@/app/api/v1/items/bulk/route";
import { POST as createOne } from "@/app/api/v1/items/route";
import { listItems } from "@/db/queries/items";
import { api, createTestRuntime, type TestRuntime } from "../../../support/runtime";

const WRITE_POLICY = '"write-10-per-1m";q=10;w=60';

function bulkOf(n: number, prefix = "item") {
  return { items: Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i}`, quantity: i })) };
}

describe("items API: bulk create costs one token per item", () => {
  let t: TestRuntime;
  let customer: { id: number; key: string };
  beforeEach(() => {
    t = createTestRuntime();
    // One token every 6 s: the RateLimit and Retry-After values below are exact seconds.
    t.addPlan("bulk", [
      { operation: "read", count: 10, periodMs: 60_000 },
      { operation: "write", count: 10, periodMs: 60_000 },
    ]);
    customer = t.addCustomer("bulk");
  });
  afterEach(() => t.cleanup());

  const stored = () => listItems(t.runtime.db, customer.id, { limit: 100 });
  const bulk = (n: number) =>
    createBulk(api("/api/v1/items/bulk", { key: customer.key, body: bulkOf(n) }));

  it("takes N tokens for N items and stores them all", async () => {
    const first = await bulk(3);
    expect(first.status).toBe(201);
    const body = (await first.json()) as { items: { name: string; quantity: number }[] };
    expect(body.items.map((i) => [i.name, i.quantity])).toEqual([
      ["item-0", 0],
      ["item-1", 1],
      ["item-2", 2],
    ]);
    expect(first.headers.get("RateLimit-Policy")).toBe(WRITE_POLICY);
    expect(first.headers.get("RateLimit")).toBe('"write-10-per-1m";r=7;t=18');
    const second = await bulk(4);
    expect(second.status).toBe(201);
    expect(second.headers.get("RateLimit")).toBe('"write-10-per-1m";r=3;t=42');
    expect(stored()).toHaveLength(7);
  });

  it("refuses a bulk larger than the tokens left with 429 and writes nothing", async () => {
    expect((await bulk(7)).status).toBe(201);
    const refused = await bulk(4);
    expect(refused.status).toBe(429);
    // 3 left, 4 asked: one more token takes 6 s.
    expect(refused.headers.get("Retry-After")).toBe("6");
    expect(refused.headers.get("RateLimit")).toBe('"write-10-per-1m";r=3;t=6');
    expect(await refused.json()).toMatchObject({ status: 429, retryAfterSeconds: 6 });
    expect(stored()).toHaveLength(7);
    // The refusal took nothing: exactly the 3 left still fit.
    const rest = await bulk(3);
    expect(rest.status).toBe(201);
    expect(rest.headers.get("RateLimit")).toBe('"write-10-per-1m";r=0;t=6');
    expect(stored()).toHaveLength(10);
  });

  // Regression: the 413 named no policy, where the 429 names them in violated-policies.
  it("answers 413 to a bulk larger than the limit's count, naming the policy, without Retry-After", async () => {
    const tooBig = await bulk(11);
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers.get("Retry-After")).toBeNull();
    expect(tooBig.headers.get("RateLimit-Policy")).toBe(WRITE_POLICY);
    expect(tooBig.headers.get("RateLimit")).toBe('"write-10-per-1m";r=10;t=0');
    expect(await tooBig.json()).toEqual({
      type: "about:blank",
      title: "Request exceeds the plan's limit",
      status: 413,
      detail:
        "This request costs 11 tokens, more than a limit of the plan allows at once: write-10-per-1m.",
      "violated-policies": ["write-10-per-1m"],
    });
    expect(stored()).toEqual([]);
    // Nothing was taken: a single create leaves 9.
    const one = await createOne(api("/api/v1/items", { key: customer.key, body: { name: "a" } }));
    expect(one.status).toBe(201);
    expect(one.headers.get("RateLimit")).toBe('"write-10-per-1m";r=9;t=6');
  });
});
