import { describe, expect, it } from "vitest";
import { countOf, formatDate, formatDateTime } from "@/lib/format";

describe("countOf", () => {
  // Regression: the customer page said "1 tokens taken".
  it("writes one thing in the singular and any other count in the plural", () => {
    expect(countOf(1, "token")).toBe("1 token");
    expect(countOf(0, "token")).toBe("0 tokens");
    expect(countOf(2, "token")).toBe("2 tokens");
    expect(countOf(12_500, "customer")).toBe("12,500 customers");
    expect(countOf(1, "entry", "entries")).toBe("1 entry");
    expect(countOf(3, "entry", "entries")).toBe("3 entries");
  });
});

describe("formatDate", () => {
  it("writes the day as formatDateTime does, without the time", () => {
    const at = Date.UTC(2026, 10, 22, 14, 3, 5);
    expect(formatDate(at, "UTC")).toBe("22 Nov 2026");
    expect(formatDateTime(at, "UTC").startsWith(`${formatDate(at, "UTC")}, `)).toBe(true);
  });
});
