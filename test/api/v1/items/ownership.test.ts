import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DELETE, GET as getOne, PATCH } from "@/app/api/v1/items/[id]/route";
import { GET as list, POST } from "@/app/api/v1/items/route";
import { getItem } from "@/db/queries/items";
import {
  api,
  createTestRuntime,
  idParams,
  START_MS,
  type TestRuntime,
} from "../../../support/runtime";

const NOT_FOUND = { type: "about:blank", title: "Item not found", status: 404 };

describe("items API: a customer sees only its own items", () => {
  let t: TestRuntime;
  let owner: { id: number; key: string };
  let other: { id: number; key: string };
  let itemId: number;
  beforeEach(async () => {
    t = createTestRuntime();
    owner = t.addCustomer("pro", "Owner");
    other = t.addCustomer("pro", "Other");
    const created = await POST(api("/api/v1/items", { key: owner.key, body: { name: "Mine" } }));
    expect(created.status).toBe(201);
    const body = (await created.json()) as { item: { id: number } };
    expect(body).toEqual({
      item: {
        id: body.item.id,
        customerId: owner.id,
        name: "Mine",
        quantity: 0,
        createdAt: START_MS,
        updatedAt: START_MS,
      },
    });
    itemId = body.item.id;
  });
  afterEach(() => t.cleanup());

  it("answers 404 to another customer's GET, PATCH and DELETE, changing nothing", async () => {
    const get = await getOne(api(`/api/v1/items/${itemId}`, { key: other.key }), idParams(itemId));
    expect(get.status).toBe(404);
    expect(await get.json()).toEqual(NOT_FOUND);
    const patch = await PATCH(
      api(`/api/v1/items/${itemId}`, { method: "PATCH", key: other.key, body: { name: "Theirs" } }),
      idParams(itemId),
    );
    expect(patch.status).toBe(404);
    const del = await DELETE(
      api(`/api/v1/items/${itemId}`, { method: "DELETE", key: other.key }),
      idParams(itemId),
    );
    expect(del.status).toBe(404);
    expect(getItem(t.runtime.db, owner.id, itemId)?.name).toBe("Mine");
    const theirs = await list(api("/api/v1/items", { key: other.key }));
    expect(await theirs.json()).toEqual({ items: [], next: null });
  });

  it("serves the owner's GET, PATCH and DELETE", async () => {
    const get = await getOne(api(`/api/v1/items/${itemId}`, { key: owner.key }), idParams(itemId));
    expect(get.status).toBe(200);
    t.clock.advance(5);
    const patch = await PATCH(
      api(`/api/v1/items/${itemId}`, { method: "PATCH", key: owner.key, body: { quantity: 3 } }),
      idParams(itemId),
    );
    expect(await patch.json()).toMatchObject({
      item: { id: itemId, name: "Mine", quantity: 3, updatedAt: START_MS + 5 },
    });
    const del = await DELETE(
      api(`/api/v1/items/${itemId}`, { method: "DELETE", key: owner.key }),
      idParams(itemId),
    );
    expect(del.status).toBe(204);
    expect(getItem(t.runtime.db, owner.id, itemId)).toBeUndefined();
  });

  it("answers 404 to an id that is not a positive integer", async () => {
    for (const id of ["0", "abc", "1.5", "-1"]) {
      const response = await getOne(api(`/api/v1/items/${id}`, { key: owner.key }), idParams(id));
      expect(response.status).toBe(404);
    }
  });
});
