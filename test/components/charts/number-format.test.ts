import { describe, expect, it } from "vitest";
import { formatCount, formatShare } from "@/components/charts/number-format";

describe("number formats", () => {
  it("separates thousands", () => {
    expect(formatCount(12_500)).toBe("12,500");
    expect(formatCount(59)).toBe("59");
  });

  it("writes shares as percentages, whole when exact", () => {
    expect(formatShare(0.59)).toBe("59%");
    expect(formatShare(2 / 3)).toBe("66.7%");
    expect(formatShare(0)).toBe("0%");
    expect(formatShare(1)).toBe("100%");
  });
});
