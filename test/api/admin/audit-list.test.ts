import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as listAudit } from "@/app/api/admin/audit/route";
import { POST as rotateKey } from "@/app/api/admin/customers/[id]/rotate-key/route";
import {
  PATCH as patchCustomer,
  DELETE as removeCustomer,
} from "@/app/api/admin/customers/[id]/route";
import { appendAudit } from "@/db/queries/audit";
import type { AuditAnswer as AuditPage } from "@/lib/schemas/audit-answer.schema";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

async function list(query: string): Promise<Response> {
  return listAudit(adminRequest(`/api/admin/audit${query}`, { cookie }));
}

async function page(query: string): Promise<AuditPage> {
  const res = await list(query);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as AuditPage;
}

const MINUTE = 60_000;

/** log appends an entry `minutes` after the start of the test clock. */
function log(minutes: number, action: string, entityId: number, actor = "admin") {
  appendAudit(t.runtime.db, {
    at: START_MS + minutes * MINUTE,
    actor,
    action,
    entityType: action.startsWith("plan") ? "plan" : "customer",
    entityId: String(entityId),
    before: null,
    after: null,
  });
}

describe("the audit log list", () => {
  it("pages newest first by time, with cursors both ways", async () => {
    for (let m = 0; m < 25; m++) log(m, "customer.update", 1);
    const first = await page("?limit=10");
    expect(first.total).toBe(25);
    expect(first.entries.map((e) => e.at)).toEqual(
      Array.from({ length: 10 }, (_, i) => START_MS + (24 - i) * MINUTE),
    );
    expect(first.prev).toBeNull();
    const second = await page(`?limit=10&after=${first.next}`);
    const third = await page(`?limit=10&after=${second.next}`);
    expect(third.entries).toHaveLength(5);
    expect(third.next).toBeNull();
    const back = await page(`?limit=10&before=${second.prev}`);
    expect(back.entries.map((e) => e.id)).toEqual(first.entries.map((e) => e.id));
  });

  it("filters by action, actor, customer and time range", async () => {
    log(1, "customer.reset-buckets", 7);
    log(2, "customer.suspend", 7, "token:deploy");
    log(3, "customer.reset-buckets", 8);
    log(4, "plan.update", 7);
    const actions = async (query: string) => (await page(query)).entries.map((e) => e.action);
    expect(await actions("?action=customer.reset-buckets")).toEqual([
      "customer.reset-buckets",
      "customer.reset-buckets",
    ]);
    expect(await actions("?actor=token%3Adeploy")).toEqual(["customer.suspend"]);
    // Customer 7, not plan 7.
    expect(await actions("?customer=7")).toEqual(["customer.suspend", "customer.reset-buckets"]);
    const from = new Date(START_MS + 2 * MINUTE).toISOString();
    const to = new Date(START_MS + 4 * MINUTE).toISOString();
    expect(await actions(`?from=${from}&to=${to}`)).toEqual([
      "customer.reset-buckets",
      "customer.suspend",
    ]);
    expect((await page("?action=customer.reset-buckets&customer=8")).total).toBe(1);
  });

  it("names each entry's customer as it is called now, and none once it is deleted", async () => {
    const customer = t.addCustomer("free", "Old name");
    await patchCustomer(
      adminRequest("/x", { method: "PATCH", cookie, body: { name: "New name" } }),
      params({ id: String(customer.id) }),
    );
    const renamed = await page(`?customer=${customer.id}`);
    expect(renamed.entries.map((e) => e.entityName)).toEqual(["New name"]);
    await removeCustomer(
      adminRequest("/x", { method: "DELETE", cookie }),
      params({ id: String(customer.id) }),
    );
    const gone = await page(`?customer=${customer.id}`);
    expect(gone.entries.map((e) => [e.action, e.entityName])).toEqual([
      ["customer.delete", null],
      ["customer.update", null],
    ]);
  });

  // Regression: a deleted customer's key rotation, whose entry records no name, read
  // "customer #64" among its other entries, which named it.
  it("gives every entry of a deleted customer its last known name, and none while it exists", async () => {
    const customer = t.addCustomer("free", "Paging test");
    const id = params({ id: String(customer.id) });
    await patchCustomer(
      adminRequest("/x", { method: "PATCH", cookie, body: { name: "Paging test x" } }),
      id,
    );
    await rotateKey(adminRequest("/x", { method: "POST", cookie }), id);
    const alive = await page(`?customer=${customer.id}`);
    expect(alive.entries.map((e) => e.lastKnownName)).toEqual([null, null]);
    await removeCustomer(adminRequest("/x", { method: "DELETE", cookie }), id);
    const gone = await page(`?customer=${customer.id}`);
    expect(gone.entries.map((e) => [e.action, e.lastKnownName])).toEqual([
      ["customer.delete", "Paging test x"],
      ["customer.rotate-key", "Paging test x"],
      ["customer.update", "Paging test x"],
    ]);
  });

  it("answers 400 with field errors for bad parameters", async () => {
    const errors = async (query: string) => {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      return (await res.json()).errors as Record<string, string[]>;
    };
    expect(await errors("?action=customer.explode")).toHaveProperty("action");
    expect(await errors("?customer=-1")).toHaveProperty("customer");
    expect(await errors("?from=yesterday")).toHaveProperty("from");
    expect(await errors("?from=2026-01-01T10:00:00")).toHaveProperty("from");
    expect(await errors("?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z")).toHaveProperty("to");
    expect(await errors("?actor=%01")).toHaveProperty("actor");
    expect(await errors("?before=WzFd")).toHaveProperty("before");
    expect(await errors("?limit=500")).toHaveProperty("limit");
  });
});
