import { describe, expect, it } from "vitest";
import { customerListQuerySchema } from "@/lib/schemas/customer-list.schema";
import { decodeCursor, encodeCursor } from "@/lib/schemas/list.schema";

describe("cursors", () => {
  it("round-trip a sort key, names in any script included, as URL-safe text", () => {
    for (const key of [[42], ["Zoë & Co / ünïcode ✓", 7], [1_700_000_000_000, 12]]) {
      const cursor = encodeCursor(key);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor)).toEqual(key);
    }
  });

  it("refuses what encodeCursor never wrote", () => {
    for (const bad of ["", "%%%", "bm90IGpzb24", encodeCursor([]), btoa('{"a":1}'), btoa("[null]")])
      expect(decodeCursor(bad)).toBeUndefined();
  });
});

describe("the customers list query", () => {
  it("has defaults, and reads ids and sizes from text", () => {
    expect(customerListQuerySchema.parse({})).toEqual({ sort: "newest", limit: 50 });
    expect(customerListQuerySchema.parse({ plan: "3", limit: "20", q: "  acme " })).toEqual({
      plan: 3,
      limit: 20,
      q: "acme",
      sort: "newest",
    });
    expect(customerListQuerySchema.parse({ q: "   " }).q).toBeUndefined();
  });

  it("takes a cursor only in the shape of its sort", () => {
    const byName = encodeCursor(["Acme", 3]);
    expect(customerListQuerySchema.safeParse({ sort: "name", after: byName }).success).toBe(true);
    expect(customerListQuerySchema.safeParse({ sort: "newest", after: byName }).success).toBe(
      false,
    );
    expect(customerListQuerySchema.safeParse({ sort: "traffic", before: byName }).success).toBe(
      false,
    );
  });
});
