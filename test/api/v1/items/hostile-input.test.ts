import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/items/[id]/route";
import { POST as createBulk } from "@/app/api/v1/items/bulk/route";
import { GET, POST } from "@/app/api/v1/items/route";
import { api, createTestRuntime, type TestRuntime } from "../../../support/runtime";
import { tableRows } from "../../../support/tables";

// The seeded pro plan reads 10 per second; a refused request peeks and shows it full.
const FULL_READ = '"read-20-per-1s";r=20;t=0';

describe("items API: hostile input", () => {
  let t: TestRuntime;
  let customer: { id: number; key: string };
  beforeEach(() => {
    t = createTestRuntime();
    customer = t.addCustomer("pro");
  });
  afterEach(() => t.cleanup());

  /** expectInvalid checks a 400 problem naming `fields`, with nothing written or consumed. */
  async function expectInvalid(
    response: Response,
    fields: string[],
    before = tableRows(t.runtime),
  ) {
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(Object.keys((await response.json()).errors)).toEqual(fields);
    expect(tableRows(t.runtime)).toEqual(before);
    // Validation happens before the decision: no bucket was even created.
    expect(t.runtime.limiter.size).toBe(0);
  }

  // Regression: a key given twice was read as its last value (JSON.parse keeps the last).
  it("refuses a body that gives a key twice with a 400 naming it, consuming nothing", async () => {
    const before = tableRows(t.runtime);
    const create = POST(
      api("/api/v1/items", { key: customer.key, rawBody: '{"name":"a","name":"b"}' }),
    );
    await expectInvalid(await create, ["name"], before);
    const bulk = createBulk(
      api("/api/v1/items/bulk", {
        key: customer.key,
        rawBody: '{"items":[{"name":"a"},{"name":"b","quantity":1,"\\u0071uantity":2}]}',
      }),
    );
    await expectInvalid(await bulk, ["items.1.quantity"], before);
  });

  // Regression: a key named like an Object.prototype member threw while building the field
  // errors, outside the handler's try: Next answered 500 with an empty body.
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"])(
    "refuses a body key named %s with a 400 problem",
    async (key) => {
      const before = tableRows(t.runtime);
      const create = POST(
        api("/api/v1/items", { key: customer.key, rawBody: `{"name":"a","${key}":1}` }),
      );
      await expectInvalid(await create, [key], before);
      const nested = createBulk(
        api("/api/v1/items/bulk", {
          key: customer.key,
          rawBody: `{"items":[{"name":"a","${key}":[1]}]}`,
        }),
      );
      await expectInvalid(await nested, [`items.0.${key}`], before);
      const edit = PATCH(
        api("/api/v1/items/1", {
          method: "PATCH",
          key: customer.key,
          rawBody: `{"name":"b","${key}":null}`,
        }),
        { params: Promise.resolve({ id: "1" }) },
      );
      await expectInvalid(await edit, [key], before);
    },
  );

  // Regression: `?limit=1.5` reached SQLite as a float (a 500) after a read token was spent.
  it.each([
    ["?limit=1.5", "limit"],
    ["?limit=abc", "limit"],
    ["?limit=-1", "limit"],
    ["?limit=0", "limit"],
    ["?limit=501", "limit"],
    ["?limit=", "limit"],
    ["?limit=%00", "limit"],
    ["?limit=1&limit=2", "limit"],
    ["?after=-1", "after"],
    ["?after=", "after"],
    ["?after=0x10", "after"],
    ["?after=1.0", "after"],
    ["?offset=5", "offset"],
    ["?constructor=1", "constructor"],
  ])("GET /api/v1/items%s is a 400 naming %s that costs nothing", async (query, field) => {
    const response = await GET(api(`/api/v1/items${query}`, { key: customer.key }));
    expect(response.headers.get("RateLimit")).toBe(FULL_READ);
    await expectInvalid(response, [field]);
  });

  it("lists a page with good parameters", async () => {
    for (const name of ["a", "b", "c"])
      await POST(api("/api/v1/items", { key: customer.key, body: { name } }));
    const first = await (await GET(api("/api/v1/items?limit=2", { key: customer.key }))).json();
    expect(first.items.map((i: { name: string }) => i.name)).toEqual(["a", "b"]);
    const rest = await GET(api(`/api/v1/items?limit=2&after=${first.next}`, { key: customer.key }));
    expect((await rest.json()).items.map((i: { name: string }) => i.name)).toEqual(["c"]);
  });

  // Regression: a lone surrogate was stored as three replacement characters.
  it.each([
    ["a NUL", "\u0000abc"],
    ["an escape", "a\u001bb"],
    ["a line break", "a\nb"],
    ["a lone surrogate", "a\ud83d"],
  ])("refuses an item name with %s", async (_, name) => {
    await expectInvalid(await POST(api("/api/v1/items", { key: customer.key, body: { name } })), [
      "name",
    ]);
  });
});
