import { describe, expect, it } from "vitest";
import {
  changeTimes,
  clip,
  segmentsOf,
  stateAt,
  type Timeline,
  union,
} from "@/lib/usage/dry-run-timeline";

// Named instants, in ms.
const [t0, t1, t2, t3, t4, t5] = [0, 10, 20, 30, 40, 50] as const;

describe("timelines", () => {
  const plan: Timeline<string> = {
    initial: "a",
    changes: [
      { at: t1, state: "b" },
      { at: t3, state: null },
      { at: t4, state: "c" },
    ],
  };

  it("stateAt is the initial state before the first change, and a change's from its own time", () => {
    expect(stateAt(plan, t0)).toBe("a");
    expect(stateAt(plan, t1 - 1)).toBe("a");
    expect(stateAt(plan, t1)).toBe("b");
    expect(stateAt(plan, t2)).toBe("b");
    expect(stateAt(plan, t3)).toBeNull();
    expect(stateAt(plan, t5)).toBe("c");
    expect(changeTimes(plan)).toEqual([t1, t3, t4]);
  });

  it("segmentsOf classifies each stretch between cuts at its start and merges equal neighbours", () => {
    const value = (ms: number) => stateAt(plan, ms) === "b" || stateAt(plan, ms) === "c";
    expect(segmentsOf({ fromMs: t0, toMs: t5 }, changeTimes(plan), value)).toEqual([
      { fromMs: t0, toMs: t1, value: false },
      { fromMs: t1, toMs: t3, value: true },
      { fromMs: t3, toMs: t4, value: false },
      { fromMs: t4, toMs: t5, value: true },
    ]);
    // Cuts outside the span, and repeated ones, change nothing.
    expect(segmentsOf({ fromMs: t2, toMs: t3 }, [t1, t2, t2, t4], value)).toEqual([
      { fromMs: t2, toMs: t3, value: true },
    ]);
    expect(segmentsOf({ fromMs: t2, toMs: t2 }, [t1], value)).toEqual([]);
  });
});

describe("intervals", () => {
  it("union merges overlapping and touching intervals in time order, dropping empty ones", () => {
    expect(
      union([
        { fromMs: t3, toMs: t4 },
        { fromMs: t0, toMs: t1 },
        { fromMs: t1, toMs: t2 },
        { fromMs: t2, toMs: t2 },
        { fromMs: t3 + 5, toMs: t5 },
      ]),
    ).toEqual([
      { fromMs: t0, toMs: t2 },
      { fromMs: t3, toMs: t5 },
    ]);
  });

  it("clip keeps what lies within the bounds, merged", () => {
    const tried = [
      { fromMs: t0, toMs: t2 },
      { fromMs: t3, toMs: t5 },
    ];
    expect(clip(tried, { fromMs: t1, toMs: t4 })).toEqual([
      { fromMs: t1, toMs: t2 },
      { fromMs: t3, toMs: t4 },
    ]);
    expect(clip(tried, { fromMs: t2, toMs: t3 })).toEqual([]);
    expect(clip([...tried, { fromMs: t1, toMs: t3 }], { fromMs: t0, toMs: t5 })).toEqual([
      { fromMs: t0, toMs: t5 },
    ]);
  });
});
