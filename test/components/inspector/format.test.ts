import { describe, expect, it } from "vitest";
import { formatWait } from "@/components/inspector/format";

describe("formatWait", () => {
  it("writes waits for people", () => {
    expect(formatWait(0)).toBe("none");
    expect(formatWait(-1)).toBe("never");
    expect(formatWait(null)).toBe("never");
    expect(formatWait(250.4)).toBe("251 ms");
    expect(formatWait(1_999)).toBe("2.0 s");
    expect(formatWait(12_340)).toBe("12.4 s");
    expect(formatWait(90_000)).toBe("1 min 30 s");
    expect(formatWait(120_000)).toBe("2 min");
    expect(formatWait(3_600_000)).toBe("1 h");
    expect(formatWait(5_460_000)).toBe("1 h 31 min");
  });
});
