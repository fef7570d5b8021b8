import { describe, expect, it } from "vitest";
import {
  DRY_RUN_STATES,
  describeAgo,
  describeDuration,
  dryRunTitle,
  dryRunVerdict,
} from "@/components/usage/dry-run-words";

const DAY = 86_400_000;

const base = {
  operation: "read" as const,
  state: "dry-run" as const,
  refused: 164,
  decisions: 5_125,
  share: 164 / 5_125,
  customers: 41,
};

describe("dryRunVerdict", () => {
  it("says what the limit would have refused, of what, and whom", () => {
    expect(dryRunVerdict(base)).toBe(
      "This limit would have refused 3.2% of reads, 41 customers, over the last 24 h (164 of 5,125).",
    );
    expect(
      dryRunVerdict({
        ...base,
        operation: "write",
        refused: 2,
        decisions: 5,
        share: 0.4,
        customers: 1,
      }),
    ).toBe("This limit would have refused 40% of writes, 1 customer, over the last 24 h (2 of 5).");
  });

  // Regression: a limit added two hours ago was judged "over the last 24 h".
  it("judges a limit added within the range since it was added, and says when", () => {
    const now = 1_800_000_000_000;
    expect(
      dryRunVerdict(
        {
          ...base,
          refused: 5,
          decisions: 22,
          share: 5 / 22,
          customers: 1,
          sinceMs: now - 2 * 3_600_000,
        },
        "the last 24 h",
        { fromMs: now - DAY, toMs: now },
      ),
    ).toBe(
      "This limit would have refused 22.7% of reads, 1 customer, since it was added 2 h ago (5 of 22).",
    );
    expect(
      dryRunVerdict(
        { ...base, refused: 0, decisions: 0, share: null, customers: 0, sinceMs: now - 20_000 },
        "the last 24 h",
        { fromMs: now - DAY, toMs: now },
      ),
    ).toBe(
      "No reads since it was added less than a minute ago: nothing to judge this limit on yet.",
    );
    expect(
      dryRunVerdict({ ...base, sinceMs: null }, "the last 24 h", { fromMs: now - DAY, toMs: now }),
    ).toMatch(/over the last 24 h/);
  });

  // Regression: a plan's dry-run limit that an override replaced for a customer was judged
  // "over the last 24 h", on reads from before it existed and after it stopped applying.
  it("judges a limit that stopped being tried until when it stopped, and one tried in stretches on how long it applied", () => {
    const now = 1_800_000_000_000;
    const range = { fromMs: now - DAY, toMs: now };
    const minutes = (n: number) => n * 60_000;
    const judged = {
      ...base,
      state: "replaced" as const,
      refused: 25,
      decisions: 30,
      customers: 1,
    };
    expect(
      dryRunVerdict(
        {
          ...judged,
          share: 25 / 30,
          sinceMs: now - minutes(3),
          tried: [{ fromMs: now - minutes(3), toMs: now - minutes(1) }],
        },
        "the last 24 h",
        range,
      ),
    ).toBe(
      "It would have refused 83.3% of reads, 1 customer, from when it was added 3 min ago until 1 min ago (25 of 30).",
    );
    expect(
      dryRunVerdict(
        {
          ...judged,
          share: 25 / 30,
          sinceMs: null,
          tried: [{ fromMs: range.fromMs, toMs: now - minutes(120) }],
        },
        "the last 24 h",
        range,
      ),
    ).toBe(
      "It would have refused 83.3% of reads, 1 customer, over the last 24 h, until 2 h ago (25 of 30).",
    );
    const hours = (n: number) => minutes(60 * n);
    const stretches = [
      { fromMs: now - hours(20), toMs: now - hours(5) },
      { fromMs: now - hours(2), toMs: now },
    ];
    expect(
      dryRunVerdict(
        { ...base, sinceMs: now - hours(20), tried: stretches },
        "the last 24 h",
        range,
      ),
    ).toBe(
      "This limit would have refused 3.2% of reads, 41 customers, in the 17 h it has applied since it was added 20 h ago (164 of 5,125).",
    );
    expect(
      dryRunVerdict(
        { ...base, state: "expired", sinceMs: null, tried: stretches.slice(0, 1) },
        "the last 24 h",
        range,
      ),
    ).toBe(
      "It would have refused 3.2% of reads, 41 customers, in the 15 h it applied of the last 24 h (164 of 5,125).",
    );
    expect(
      dryRunVerdict(
        {
          ...base,
          sinceMs: null,
          tried: [{ fromMs: now - minutes(30), toMs: now }],
        },
        "the last 24 h",
        range,
      ),
    ).toBe(
      "This limit would have refused 3.2% of reads, 41 customers, in the 30 min it has applied of the last 24 h (164 of 5,125).",
    );
  });

  it("describeAgo says how long ago, rounded down", () => {
    const now = 1_800_000_000_000;
    expect(describeAgo(now - 59_999, now)).toBe("less than a minute ago");
    expect(describeAgo(now - 5 * 60_000, now)).toBe("5 min ago");
    expect(describeAgo(now - 47 * 3_600_000, now)).toBe("47 h ago");
    expect(describeAgo(now - 3 * 86_400_000, now)).toBe("3 days ago");
  });

  it("describeDuration says how long, rounded down", () => {
    expect(describeDuration(59_999)).toBe("a few seconds");
    expect(describeDuration(12 * 60_000 + 59_999)).toBe("12 min");
    expect(describeDuration(47 * 3_600_000)).toBe("47 h");
    expect(describeDuration(3 * 86_400_000)).toBe("3 days");
  });

  it("speaks in the past of a limit since promoted or removed", () => {
    expect(dryRunVerdict({ ...base, state: "enforced" })).toMatch(/^It would have refused 3.2%/);
  });

  it("says there is nothing to judge without traffic", () => {
    expect(dryRunVerdict({ ...base, refused: 0, decisions: 0, share: null, customers: 0 })).toBe(
      "No reads over the last 24 h: nothing to judge this limit on yet.",
    );
  });

  it("a limit that refused nothing says so in figures", () => {
    expect(dryRunVerdict({ ...base, refused: 0, share: 0, customers: 0 })).toBe(
      "This limit would have refused 0% of reads, 0 customers, over the last 24 h (0 of 5,125).",
    );
  });
});

describe("DRY_RUN_STATES", () => {
  it("words each state with no dangling 'since': the time follows on its own when known", () => {
    expect(DRY_RUN_STATES).toEqual({
      "dry-run": "dry run",
      enforced: "enforced",
      replaced: "replaced by an override",
      expired: "expired with the override",
      removed: "removed",
    });
  });
});

describe("dryRunTitle", () => {
  it("names the operation and the limit, and whose it is when asked", () => {
    const limit = {
      operation: "write" as const,
      count: 3,
      periodMs: 3_600_000,
      source: "override" as const,
    };
    expect(dryRunTitle(limit)).toBe("Writes: 3 per hour");
    expect(dryRunTitle(limit, true)).toBe("Writes: 3 per hour (override)");
  });
});
