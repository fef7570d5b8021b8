import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DELETE, GET as getOne, PATCH } from "@/app/api/v1/items/[id]/route";
import { POST as createBulk } from "@/app/api/v1/items/bulk/route";
import { POST } from "@/app/api/v1/items/route";
import { listItems } from "@/db/queries/items";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { api, createTestRuntime, idParams, type TestRuntime } from "../../../support/runtime";

// The seeded pro plan writes 5 per second and 200 per minute; a 400 peeks and shows them full.
const PRO_WRITE_POLICY = '"write-5-per-1s";q=5;w=1, "write-200-per-1m";q=200;w=60';
const FULL = '"write-5-per-1s";r=5;t=0';

describe("items API: invalid bodies", () => {
  let t: TestRuntime;
  let customer: { id: number; key: string };
  beforeEach(() => {
    t = createTestRuntime();
    customer = t.addCustomer("pro");
  });
  afterEach(() => t.cleanup());

  async function expectInvalid(response: Response, errors: Record<string, string[]>) {
    expect(response.status).toBe(400);
    expect(response.headers.get("RateLimit-Policy")).toBe(PRO_WRITE_POLICY);
    expect(response.headers.get("RateLimit")).toBe(FULL);
    expect(await response.json()).toEqual({
      type: "about:blank",
      title: "Invalid request",
      status: 400,
      errors,
    });
    expect(listItems(t.runtime.db, customer.id, { limit: 10 })).toEqual([]);
    // Validation happens before the decision: no bucket was even created.
    expect(t.runtime.limiter.size).toBe(0);
  }

  const create = (body: unknown) => POST(api("/api/v1/items", { key: customer.key, body }));

  it("rejects wrong types with an error per field", async () => {
    await expectInvalid(await create({ name: 5, quantity: "3" }), {
      name: ["Invalid input: expected string, received number"],
      quantity: ["Invalid input: expected number, received string"],
    });
    await expectInvalid(await create({ name: "a", quantity: 1.5 }), {
      quantity: ["Quantity must be a whole number"],
    });
  });

  it("rejects a missing or blank name", async () => {
    await expectInvalid(await create({ quantity: 1 }), {
      name: ["Invalid input: expected string, received undefined"],
    });
    await expectInvalid(await create({ name: "   " }), { name: ["Name is required"] });
  });

  it("rejects fields the schema does not know", async () => {
    await expectInvalid(await create({ name: "a", color: "red", size: 2 }), {
      color: ["Unknown field"],
      size: ["Unknown field"],
    });
  });

  it("rejects a body that is not JSON, and a missing body", async () => {
    const bad = POST(api("/api/v1/items", { key: customer.key, rawBody: '{"name": "a",' }));
    await expectInvalid(await bad, { "": ["Body must be valid JSON"] });
    const empty = POST(api("/api/v1/items", { method: "POST", key: customer.key }));
    await expectInvalid(await empty, {
      "": ["Invalid input: expected object, received undefined"],
    });
  });

  it("rejects an empty edit and a bad item inside a bulk, by dotted path", async () => {
    const edit = PATCH(
      api("/api/v1/items/1", { method: "PATCH", key: customer.key, body: {} }),
      idParams(1),
    );
    await expectInvalid(await edit, { "": ["Nothing to change"] });
    const bulk = createBulk(
      api("/api/v1/items/bulk", {
        key: customer.key,
        body: { items: [{ name: "ok" }, { name: "", quantity: -1 }] },
      }),
    );
    await expectInvalid(await bulk, {
      "items.1.name": ["Name is required"],
      "items.1.quantity": ["Quantity must be 0 or more"],
    });
    const none = createBulk(api("/api/v1/items/bulk", { key: customer.key, body: { items: [] } }));
    await expectInvalid(await none, { items: ["Add at least one item"] });
  });

  it("refuses a body over 1 MiB with 413, declared or not, and writes nothing", async () => {
    const huge = JSON.stringify({ items: [{ name: "x".repeat(MAX_BODY_BYTES) }] });
    const undeclared = await createBulk(
      api("/api/v1/items/bulk", { key: customer.key, rawBody: huge }),
    );
    expect(undeclared.status).toBe(413);
    expect(undeclared.headers.get("RateLimit")).toBe(FULL);
    const declared = await POST(
      new Request("http://test/api/v1/items", {
        method: "POST",
        headers: {
          authorization: `Bearer ${customer.key}`,
          "content-type": "application/json",
          "content-length": String(MAX_BODY_BYTES + 1),
        },
        body: "{}",
      }),
    );
    expect(declared.status).toBe(413);
    expect((await declared.json()).title).toBe("Body too large");
    expect(listItems(t.runtime.db, customer.id, { limit: 10 })).toEqual([]);
    expect(t.runtime.limiter.size).toBe(0);
  });

  // Regression: a path id that is not an id ("abc", "1.5", "-1", a NUL) was answered 404 only
  // after the decision, so it took a token; a bad path, like a bad body, must cost nothing.
  it("refuses a path id that is not an id with 404 before the decision, taking no token", async () => {
    const READ_FULL = '"read-20-per-1s";r=20;t=0';
    for (const id of ["abc", "1.5", "-1", "0", "01", "\u0000", "99999999999999999999"]) {
      const read = await getOne(api(`/api/v1/items/${id}`, { key: customer.key }), idParams(id));
      expect(read.status, id).toBe(404);
      expect(await read.json()).toEqual({ type: "about:blank", title: "Not found", status: 404 });
      expect(read.headers.get("RateLimit")).toBe(READ_FULL);
      const edit = await PATCH(
        api(`/api/v1/items/${id}`, { method: "PATCH", key: customer.key, body: { name: "b" } }),
        idParams(id),
      );
      expect(edit.status, id).toBe(404);
      expect(edit.headers.get("RateLimit")).toBe(FULL);
      const del = await DELETE(
        api(`/api/v1/items/${id}`, { method: "DELETE", key: customer.key }),
        idParams(id),
      );
      expect(del.status, id).toBe(404);
    }
    expect(t.runtime.limiter.size).toBe(0);
  });

  it("still charges a well-formed id that names no item: probing ids is rate-limited too", async () => {
    const read = await getOne(api("/api/v1/items/999", { key: customer.key }), idParams(999));
    expect(read.status).toBe(404);
    expect(await read.json()).toEqual({
      type: "about:blank",
      title: "Item not found",
      status: 404,
    });
    expect(read.headers.get("RateLimit")).toBe('"read-20-per-1s";r=19;t=1');
  });
});
