import { describe, expect, it } from "vitest";
import { TrafficLog } from "@/lib/usage/traffic-log";

describe("the traffic log", () => {
  it("keeps per second the tokens taken and when the first and last allowed decision came", () => {
    const log = new TrafficLog(10);
    const second = 1_700_000_000_000;
    log.record(7, "read", false, second + 50);
    log.record(7, "read", true, second + 120, 3);
    log.record(7, "read", true, second + 480, 2);
    log.record(7, "read", false, second + 900);
    log.record(7, "write", true, second + 2_999);
    log.record(8, "read", true, second + 10);
    expect(log.takenSeconds(second + 3_500, 5, [7])).toEqual(
      new Map([
        ["7|read", [{ t: second, allowed: 2, denied: 2, taken: 5, firstMs: 120, lastMs: 480 }]],
        [
          "7|write",
          [{ t: second + 2_000, allowed: 1, denied: 0, taken: 1, firstMs: 999, lastMs: 999 }],
        ],
      ]),
    );
  });

  it("forgets a second when its slot comes round again, and reads only the window asked", () => {
    const log = new TrafficLog(10);
    log.record(1, "read", true, 0, 4);
    log.record(1, "read", false, 10_500);
    expect(log.takenSeconds(10_500, 10, [1]).get("1|read")).toEqual([
      { t: 10_000, allowed: 0, denied: 1, taken: 0, firstMs: 0, lastMs: 0 },
    ]);
    log.record(1, "read", true, 12_250, 2);
    expect(log.takenSeconds(12_900, 1, [1]).get("1|read")).toEqual([
      { t: 12_000, allowed: 1, denied: 0, taken: 2, firstMs: 250, lastMs: 250 },
    ]);
    expect(log.takenSeconds(12_900, 5, [2]).size).toBe(0);
  });

  // Regression: a series was numbered customer × 2 + (read ? 0 : 1), so every class but read
  // was counted as the customer's writes.
  it("keeps each operation class's seconds apart, and forgets them all with the customer", () => {
    const log = new TrafficLog(10);
    const second = 1_700_000_000_000;
    log.record(7, "write", true, second + 100, 1);
    log.record(7, "exports", true, second + 200, 4);
    log.record(7, "exports", false, second + 300);
    expect(log.takenSeconds(second + 1_500, 5, [7])).toEqual(
      new Map([
        ["7|write", [{ t: second, allowed: 1, denied: 0, taken: 1, firstMs: 100, lastMs: 100 }]],
        ["7|exports", [{ t: second, allowed: 1, denied: 1, taken: 4, firstMs: 200, lastMs: 200 }]],
      ]),
    );
    expect(log.points(second + 500, 1, { operation: "exports" })).toEqual([
      { t: second, allowed: 1, denied: 1 },
    ]);
    expect(log.totalsOf(second + 500, 5, [7]).get(7)).toEqual({ allowed: 2, denied: 1 });
    log.forgetCustomer(7);
    expect(log.takenSeconds(second + 1_500, 5, [7]).size).toBe(0);
  });
});
