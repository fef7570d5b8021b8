import { describe, expect, it } from "vitest";
import {
  benchItemsQuerySchema,
  itemListQuerySchema,
  trafficQuerySchema,
} from "@/lib/schemas/query.schema";

describe("query schemas", () => {
  it("apply defaults and read digits as numbers", () => {
    expect(itemListQuerySchema.parse({})).toEqual({ limit: 50 });
    expect(itemListQuerySchema.parse({ limit: "500", after: "7" })).toEqual({
      limit: 500,
      after: 7,
    });
    expect(trafficQuerySchema.parse({ customerId: "3" })).toEqual({ seconds: 300, customerId: 3 });
    expect(benchItemsQuerySchema.parse({ customer: "2" })).toEqual({ customer: 2, limit: 50 });
  });

  it.each([
    "1.5",
    "abc",
    "",
    " 5",
    "+5",
    "-1",
    "1e2",
    "0x1f",
    "0",
    "501",
    "Infinity",
    "NaN",
    "99999999999999999",
  ])("refuse limit=%j", (limit) => {
    expect(itemListQuerySchema.safeParse({ limit }).success).toBe(false);
  });

  it("refuse a repeated, unknown or missing required parameter", () => {
    expect(itemListQuerySchema.safeParse({ limit: ["1", "2"] }).success).toBe(false);
    expect(itemListQuerySchema.safeParse({ cursor: "1" }).success).toBe(false);
    expect(benchItemsQuerySchema.safeParse({}).success).toBe(false);
    expect(benchItemsQuerySchema.safeParse({ customer: "1", x: "1" }).success).toBe(false);
  });
});
