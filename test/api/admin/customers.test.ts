import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DELETE as clearOverride,
  PUT as putOverride,
} from "@/app/api/admin/customers/[id]/overrides/[operation]/route";
import { POST as rotate } from "@/app/api/admin/customers/[id]/rotate-key/route";
import {
  GET as getCustomer,
  PATCH as patchCustomer,
  DELETE as remove,
} from "@/app/api/admin/customers/[id]/route";
import { POST as createCustomer, GET as listCustomers } from "@/app/api/admin/customers/route";
import { POST as createItem, GET as listItems } from "@/app/api/v1/items/route";
import { listAudit } from "@/db/queries/audit";
import { listCustomerRows, listOverrides } from "@/db/queries/customers";
import { hashApiKey } from "@/lib/policy/api-key";
import { api, createTestRuntime, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

const id = (n: number) => params({ id: String(n) });
const op = (n: number, operation: string) => params({ id: String(n), operation });

async function create(body: unknown) {
  return createCustomer(adminRequest("/api/admin/customers", { cookie, body }));
}

function patch(customerId: number, body: unknown) {
  return patchCustomer(adminRequest("/x", { method: "PATCH", cookie, body }), id(customerId));
}

function snapshotDb() {
  return {
    customers: listCustomerRows(t.runtime.db),
    overrides: listOverrides(t.runtime.db),
    audit: listAudit(t.runtime.db, { limit: 1000 }),
  };
}

describe("customers", () => {
  it("creates a customer whose key works at once and is stored only as a hash", async () => {
    const res = await create({ name: "Acme", planId: t.planId("pro") });
    expect(res.status).toBe(201);
    const { customer, apiKey } = await res.json();
    expect(apiKey).toMatch(/^rk_[\w-]{32}$/);
    expect(customer).toMatchObject({
      name: "Acme",
      planSlug: "pro",
      status: "active",
      apiKeyPrefix: apiKey.slice(0, 10),
    });
    expect(customer).not.toHaveProperty("apiKeyHash");
    const row = listCustomerRows(t.runtime.db).find((c) => c.id === customer.id);
    expect(row?.apiKeyHash).toBe(hashApiKey(apiKey));
    expect(
      JSON.stringify(await (await listCustomers(adminRequest("/x", { cookie }))).json()),
    ).not.toContain(apiKey);
    const call = await listItems(api("/api/v1/items", { key: apiKey }));
    expect(call.status).toBe(200);
    expect(call.headers.get("ratelimit-policy")).toBe(
      '"read-20-per-1s";q=20;w=1, "read-1000-per-1m";q=1000;w=60',
    );
    expect(listAudit(t.runtime.db, { limit: 1 })[0]?.action).toBe("customer.create");
  });

  it("rotates a key: the old one is refused, the new one works", async () => {
    const res = await rotate(adminRequest("/x", { method: "POST", cookie }), id(t.demoId));
    expect(res.status).toBe(200);
    const { apiKey } = await res.json();
    expect((await listItems(api("/api/v1/items", { key: t.demoKey }))).status).toBe(401);
    expect((await listItems(api("/api/v1/items", { key: apiKey }))).status).toBe(200);
    const [entry] = listAudit(t.runtime.db, { limit: 1 });
    expect(entry?.action).toBe("customer.rotate-key");
    expect(JSON.stringify(entry)).not.toContain(apiKey);
  });

  it("suspends (403, nothing consumed) and reactivates a customer", async () => {
    expect((await patch(t.demoId, { status: "suspended" })).status).toBe(200);
    expect((await listItems(api("/api/v1/items", { key: t.demoKey }))).status).toBe(403);
    expect(t.runtime.limiter.size).toBe(0);
    expect(listAudit(t.runtime.db, { limit: 1 })[0]?.action).toBe("customer.suspend");
    expect((await patch(t.demoId, { status: "active" })).status).toBe(200);
    expect((await listItems(api("/api/v1/items", { key: t.demoKey }))).status).toBe(200);
    expect(listAudit(t.runtime.db, { limit: 1 })[0]?.action).toBe("customer.activate");
  });

  it("moves a customer to another plan for the next request", async () => {
    expect((await patch(t.demoId, { planId: t.planId("enterprise") })).status).toBe(200);
    const res = await listItems(api("/api/v1/items", { key: t.demoKey }));
    expect(res.headers.get("ratelimit-policy")).toContain('"read-100-per-1s";q=100;w=1');
  });

  it("deletes a customer with its items; its key stops working", async () => {
    expect(
      (await createItem(api("/api/v1/items", { key: t.demoKey, body: { name: "a" } }))).status,
    ).toBe(201);
    expect(
      (await remove(adminRequest("/x", { method: "DELETE", cookie }), id(t.demoId))).status,
    ).toBe(204);
    expect((await listItems(api("/api/v1/items", { key: t.demoKey }))).status).toBe(401);
    expect(t.runtime.sqlite.prepare("SELECT count(*) AS n FROM items").get()).toEqual({ n: 0 });
    expect(t.runtime.limiter.size).toBe(0);
    expect((await getCustomer(adminRequest("/x", { cookie }), id(t.demoId))).status).toBe(404);
  });

  it("sets an override that applies until its expiry, then the plan again", async () => {
    const expiresAt = t.clock.now() + 60_000;
    const res = await putOverride(
      adminRequest("/x", {
        method: "PUT",
        cookie,
        body: { limits: [{ count: 2, periodMs: 60_000 }], expiresAt },
      }),
      op(t.demoId, "read"),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).overrides).toEqual({
      read: { limits: [{ count: 2, periodMs: 60_000, dryRun: false }], expiresAt },
    });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await listItems(api("/api/v1/items", { key: t.demoKey }))).status);
    expect(statuses).toEqual([200, 200, 429]);
    t.clock.advance(60_000);
    const after = await listItems(api("/api/v1/items", { key: t.demoKey }));
    expect(after.status).toBe(200);
    expect(after.headers.get("ratelimit-policy")).toBe(
      '"read-5-per-1s";q=5;w=1, "read-100-per-1m";q=100;w=60',
    );
    expect(listAudit(t.runtime.db, { limit: 1 })[0]?.action).toBe("override.set");
  });

  it("clears an override", async () => {
    await putOverride(
      adminRequest("/x", {
        method: "PUT",
        cookie,
        body: { limits: [{ count: 1, periodMs: 60_000 }] },
      }),
      op(t.demoId, "write"),
    );
    const res = await clearOverride(
      adminRequest("/x", { method: "DELETE", cookie }),
      op(t.demoId, "write"),
    );
    expect(res.status).toBe(200);
    expect(listOverrides(t.runtime.db)).toEqual([]);
    expect(listAudit(t.runtime.db, { limit: 1 })[0]?.action).toBe("override.clear");
  });
});

describe("bad customer bodies", () => {
  const badCreates: [string, unknown, string][] = [
    ["a missing name", { planId: 1 }, "name"],
    ["an empty name", { name: " ", planId: 1 }, "name"],
    ["a string plan id", { name: "A", planId: "1" }, "planId"],
    ["a negative plan id", { name: "A", planId: -1 }, "planId"],
    ["an unknown plan", { name: "A", planId: 999 }, "planId"],
    ["an extra field", { name: "A", planId: 1, apiKey: "mine" }, "apiKey"],
    ["a huge name", { name: "x".repeat(500), planId: 1 }, "name"],
  ];
  it.each(badCreates)(
    "create with %s is a 400 at the field and changes nothing",
    async (_, body, field) => {
      const before = snapshotDb();
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).errors)).toContain(field);
      expect(snapshotDb()).toEqual(before);
    },
  );

  const badUpdates: [string, unknown, string][] = [
    ["an empty body", {}, ""],
    ["an unknown status", { status: "deleted" }, "status"],
    ["an unknown plan", { planId: 999 }, "planId"],
    ["a zero plan id", { planId: 0 }, "planId"],
    ["an extra field", { apiKeyHash: "x" }, "apiKeyHash"],
  ];
  it.each(badUpdates)(
    "update with %s is a 400 at the field and changes nothing",
    async (_, body, field) => {
      const before = snapshotDb();
      const res = await patch(t.demoId, body);
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).errors)).toContain(field);
      expect(snapshotDb()).toEqual(before);
    },
  );

  const badOverrides: [string, unknown, string][] = [
    ["no limits", { limits: [] }, "limits"],
    ["a zero count", { limits: [{ count: 0, periodMs: 1_000 }] }, "limits.0.count"],
    ["a negative period", { limits: [{ count: 1, periodMs: -5 }] }, "limits.0.periodMs"],
    ["a huge count", { limits: [{ count: 1e9, periodMs: 1_000 }] }, "limits.0.count"],
    [
      "an operation inside a limit",
      { limits: [{ operation: "read", count: 1, periodMs: 1_000 }] },
      "limits.0.operation",
    ],
    ["a past expiry", { limits: [{ count: 1, periodMs: 1_000 }], expiresAt: 1_000 }, "expiresAt"],
    [
      "a string expiry",
      { limits: [{ count: 1, periodMs: 1_000 }], expiresAt: "tomorrow" },
      "expiresAt",
    ],
    ["an extra field", { limits: [{ count: 1, periodMs: 1_000 }], reason: "x" }, "reason"],
  ];
  it.each(badOverrides)(
    "override with %s is a 400 at the field and changes nothing",
    async (_, body, field) => {
      const before = snapshotDb();
      const res = await putOverride(
        adminRequest("/x", { method: "PUT", cookie, body }),
        op(t.demoId, "read"),
      );
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).errors)).toContain(field);
      expect(snapshotDb()).toEqual(before);
    },
  );

  it("answers 404 for an override of an unknown operation", async () => {
    const res = await putOverride(
      adminRequest("/x", {
        method: "PUT",
        cookie,
        body: { limits: [{ count: 1, periodMs: 1_000 }] },
      }),
      op(t.demoId, "delete"),
    );
    expect(res.status).toBe(404);
  });
});
