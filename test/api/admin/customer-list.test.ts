import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as listCustomers } from "@/app/api/admin/customers/route";
import { insertCustomer, updateCustomerRow } from "@/db/queries/customers";
import { generateApiKey } from "@/lib/policy/api-key";
import type { CustomersAnswer as CustomerPage } from "@/lib/schemas/customer-answer.schema";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { adminRequest, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

async function list(query: string): Promise<Response> {
  return listCustomers(adminRequest(`/api/admin/customers${query}`, { cookie }));
}

async function page(query: string): Promise<CustomerPage> {
  const res = await list(query);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as CustomerPage;
}

/** addMany stores customers with these names on a plan, in one transaction; ids in order. */
function addMany(names: string[], planSlug = "free"): { id: number; prefix: string }[] {
  const planId = t.planId(planSlug);
  const added = t.runtime.db.transaction((tx) =>
    names.map((name) => {
      const key = generateApiKey();
      const id = insertCustomer(
        tx,
        { name, planId, apiKeyHash: key.hash, apiKeyPrefix: key.prefix },
        t.clock.now(),
      );
      return { id, prefix: key.prefix };
    }),
  );
  t.runtime.policy.applyEdit();
  return added;
}

/** walk follows `next` from a first page to the end and returns every page's names. */
async function walk(query: string): Promise<string[][]> {
  const pages: string[][] = [];
  let next: string | null = null;
  do {
    const p = await page(`${query}${next ? `&after=${next}` : ""}`);
    pages.push(p.customers.map((c) => c.name));
    next = p.next;
  } while (next && pages.length < 100);
  return pages;
}

describe("the customers list", () => {
  it("pages newest first with cursors both ways, every customer once, and a total", async () => {
    addMany(Array.from({ length: 45 }, (_, i) => `C${String(i).padStart(2, "0")}`));
    const pages = await walk("?limit=20");
    expect(pages.map((p) => p.length)).toEqual([20, 20, 6]);
    const names = pages.flat();
    expect(names[0]).toBe("C44");
    expect(names.at(-1)).toBe("Demo customer");
    expect(new Set(names).size).toBe(46);

    const first = await page("?limit=20");
    expect(first.total).toBe(46);
    expect(first.prev).toBeNull();
    const second = await page(`?limit=20&after=${first.next}`);
    expect(second.prev).not.toBeNull();
    const back = await page(`?limit=20&before=${second.prev}`);
    expect(back.customers.map((c) => c.name)).toEqual(first.customers.map((c) => c.name));
    expect(back.prev).toBeNull();
    expect(back.next).toBe(first.next);
  });

  it("sorts by name without regard to case, and pages through the sort", async () => {
    addMany(["beta", "Alpha", "charlie", "Delta", "echo"]);
    const pages = await walk("?sort=name&limit=2");
    expect(pages).toEqual([
      ["Alpha", "beta"],
      ["charlie", "Delta"],
      ["Demo customer", "echo"],
    ]);
  });

  it("finds a customer by part of its name, its key prefix or its id", async () => {
    const [acme, , globex] = addMany(["Acme Corp", "Initech", "Globex"]);
    const names = async (q: string) =>
      (await page(`?q=${encodeURIComponent(q)}`)).customers.map((c) => c.name);
    expect(await names("cme")).toEqual(["Acme Corp"]);
    expect(await names("ACME")).toEqual(["Acme Corp"]);
    expect(await names(acme?.prefix as string)).toEqual(["Acme Corp"]);
    expect(await names(`${globex?.prefix}rest-of-the-key`)).toEqual(["Globex"]);
    expect(await names(`#${globex?.id}`)).toEqual(["Globex"]);
    expect(await names(String(globex?.id))).toContain("Globex");
    expect(await names("  ")).toHaveLength(4);
  });

  it("treats % and _ in a search as themselves", async () => {
    addMany(["50% off", "plain"]);
    expect((await page("?q=%25")).customers.map((c) => c.name)).toEqual(["50% off"]);
    expect((await page("?q=_")).total).toBe(0);
  });

  it("filters by plan and status, and the total counts the filtered rows", async () => {
    const [a] = addMany(["Pro one", "Pro two"], "pro");
    addMany(["Free one"]);
    updateCustomerRow(t.runtime.db, a?.id as number, { status: "suspended" }, t.clock.now());
    const pro = await page(`?plan=${t.planId("pro")}`);
    expect(pro.customers.map((c) => c.name)).toEqual(["Pro two", "Pro one"]);
    expect(pro.total).toBe(2);
    const suspended = await page("?status=suspended");
    expect(suspended.customers.map((c) => c.name)).toEqual(["Pro one"]);
    const both = await page(`?plan=${t.planId("pro")}&status=active&q=two`);
    expect(both.customers.map((c) => c.name)).toEqual(["Pro two"]);
  });

  it("sorts by recent traffic, most first, and shows each row's traffic", async () => {
    const [quiet, busy, middling] = addMany(["Quiet", "Busy", "Middling"]);
    const record = (id: number, n: number, allowed = true) => {
      for (let i = 0; i < n; i++) t.runtime.traffic.record(id, "read", allowed, t.clock.now());
    };
    record(busy?.id as number, 5);
    record(busy?.id as number, 2, false);
    record(middling?.id as number, 3);
    record(quiet?.id as number, 0);
    const pages = await walk("?sort=traffic&limit=2");
    expect(pages).toEqual([
      ["Busy", "Middling"],
      ["Demo customer", "Quiet"],
    ]);
    const first = await page("?sort=traffic&limit=2");
    expect(first.customers[0]?.traffic).toEqual({ allowed: 5, denied: 2 });
    const second = await page(`?sort=traffic&limit=2&after=${first.next}`);
    const back = await page(`?sort=traffic&limit=2&before=${second.prev}`);
    expect(back.customers.map((c) => c.name)).toEqual(["Busy", "Middling"]);
  });

  it("answers 400 with field errors for bad parameters", async () => {
    const errors = async (query: string) => {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      return (await res.json()).errors as Record<string, string[]>;
    };
    expect(await errors("?limit=0")).toHaveProperty("limit");
    expect(await errors("?limit=201")).toHaveProperty("limit");
    expect(await errors("?limit=ten")).toHaveProperty("limit");
    expect(await errors("?sort=size")).toHaveProperty("sort");
    expect(await errors("?plan=abc")).toHaveProperty("plan");
    expect(await errors("?plan=0")).toHaveProperty("plan");
    expect(await errors("?status=gone")).toHaveProperty("status");
    expect(await errors("?after=not-a-cursor")).toHaveProperty("after");
    expect(await errors("?q=a%00b")).toHaveProperty("q");
    expect(await errors(`?q=${"x".repeat(101)}`)).toHaveProperty("q");
    expect(await errors("?colour=red")).toHaveProperty("colour");
    expect(await errors("?q=a&q=b")).toHaveProperty("q");
    // A cursor of another sort does not fit this one.
    addMany(["A", "B"]);
    const byName = await page("?sort=name&limit=1");
    expect(await errors(`?sort=newest&after=${byName.next}`)).toHaveProperty("after");
    expect(await errors(`?after=${byName.next}&before=${byName.next}&sort=name`)).toHaveProperty(
      "before",
    );
  });
});
