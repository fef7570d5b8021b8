import { describe, expect, it } from "vitest";
import { describeLastUse } from "@/components/service-tokens/last-use";
import { formatDate } from "@/lib/time-format";

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);

describe("describeLastUse", () => {
  it.each([
    [null, "Never"],
    [NOW, "Just now"],
    [NOW - 59_999, "Just now"],
    [NOW - 60_000, "1 min ago"],
    [NOW - 59 * 60_000, "59 min ago"],
    [NOW - 3_600_000, "1 h ago"],
    [NOW - 23.9 * 3_600_000, "23 h ago"],
    [NOW - 86_400_000, "1 day ago"],
    [NOW - 6 * 86_400_000, "6 days ago"],
    // A clock a little ahead on another instance is not "in the future".
    [NOW + 5_000, "Just now"],
  ])("words %s as %s", (lastUsedAt, words) => {
    expect(describeLastUse(lastUsedAt, NOW)).toBe(words);
  });

  // Regression: the service tokens wrote dates as "Apr 20, 2026" (and times in the browser's
  // locale) where the audit log writes "20 Apr 2026, 14:03:05 UTC".
  it("gives the date past a week, written as the audit log writes its dates", () => {
    const at = NOW - 30 * 86_400_000;
    expect(describeLastUse(at, NOW)).toBe(formatDate(at));
    expect(describeLastUse(at, NOW)).toMatch(/^2[01] Apr 2026$/);
    expect(describeLastUse(NOW - 7 * 86_400_000, NOW)).toMatch(/^1[34] May 2026$/);
  });
});
