import { describe, expect, it } from "vitest";
import { countOf } from "@/lib/format";

describe("countOf", () => {
  // Regressions: server messages said "1 days" and "1 customers"; the customer page said
  // "1 tokens taken".
  it("writes the singular for exactly one, the plural otherwise, with thousands separated", () => {
    expect(countOf(1, "day")).toBe("1 day");
    expect(countOf(0, "day")).toBe("0 days");
    expect(countOf(2, "token")).toBe("2 tokens");
    expect(countOf(1_000_000, "token")).toBe("1,000,000 tokens");
    expect(countOf(1, "entry", "entries")).toBe("1 entry");
    expect(countOf(3, "entry", "entries")).toBe("3 entries");
  });
});
