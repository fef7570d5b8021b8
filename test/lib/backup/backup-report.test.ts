import { describe, expect, it } from "vitest";
import { describeCounts, formatCount, formatDuration } from "@/lib/backup/backup-report";

describe("the backup report's numbers", () => {
  it("say how long a backup took in ms under a second, never 0.0 s", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(12.4)).toBe("12 ms");
    expect(formatDuration(999)).toBe("999 ms");
    expect(formatDuration(1_000)).toBe("1.0 s");
    expect(formatDuration(3_456)).toBe("3.5 s");
  });

  it("write counts one way, with thousands separated, as db:backup and the schedule's log both use", () => {
    expect(formatCount(10_000)).toBe("10,000");
    expect(formatCount(1)).toBe("1");
    expect(
      describeCounts({
        plans: 3,
        customers: 10_000,
        serviceTokens: null,
        auditEntries: 1,
        lastAuditId: 12_345,
        usageRows: null,
      }),
    ).toBe("3 plans, 10,000 customers, 1 audit entry (last id 12345)");
  });
});
