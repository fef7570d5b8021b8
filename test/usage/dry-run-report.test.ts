import { describe, expect, it } from "vitest";
import { edgeMinutesOf, outsideSecond, windowsOf } from "@/lib/usage/dry-run-report";

const MIN = 60_000;
const range = { fromMs: 0, toMs: 60 * MIN };

describe("what a dry-run report reads for its tried intervals", () => {
  // Regression: a limit tried until an override replaced it was counted to the range's end.
  it("windowsOf reads each interval from its start's minute through its end's, and a shared minute once", () => {
    const tried = [
      { fromMs: 10 * MIN + 15_000, toMs: 20 * MIN + 55_000 },
      { fromMs: 20 * MIN + 58_000, toMs: 30 * MIN },
      { fromMs: 50 * MIN + 1_000, toMs: 60 * MIN },
    ];
    expect(windowsOf(tried, range)).toEqual([
      { fromMs: 10 * MIN, toMs: 30 * MIN },
      { fromMs: 50 * MIN, toMs: 60 * MIN },
    ]);
    // From the range's own start, as every other usage read.
    expect(windowsOf([{ fromMs: 30_000, toMs: MIN }], { fromMs: 30_000, toMs: 2 * MIN })).toEqual([
      { fromMs: 30_000, toMs: MIN },
    ]);
  });

  it("edgeMinutesOf names the minutes read whole but tried in part, not the range's ends", () => {
    const tried = [
      { fromMs: 0, toMs: 20 * MIN + 55_000 },
      { fromMs: 30 * MIN, toMs: 40 * MIN + 1 },
      { fromMs: 50 * MIN + 1_000, toMs: 60 * MIN },
    ];
    expect(edgeMinutesOf(tried, range)).toEqual([20 * MIN, 40 * MIN, 50 * MIN]);
  });

  it("outsideSecond counts a second an interval starts or ends within as inside", () => {
    const tried = [{ fromMs: 10_500, toMs: 20_500 }];
    expect(outsideSecond(9_000, tried)).toBe(true);
    expect(outsideSecond(10_000, tried)).toBe(false);
    expect(outsideSecond(20_000, tried)).toBe(false);
    expect(outsideSecond(21_000, tried)).toBe(true);
    expect(outsideSecond(20_500, [{ fromMs: 10_000, toMs: 20_500 }])).toBe(true);
  });
});
