import { describe, expect, it } from "vitest";
import { levelSteps, lowestOf, undrawnMs } from "@/components/charts/level-steps";

const fivePerSecond = { count: 5, periodMs: 1_000 };

describe("levelSteps", () => {
  // Regression: polled once a second, a 5 per second bucket drawn straight from the peeks showed
  // flat steps; between peeks it refills a token every 200 ms, a saw-tooth.
  it("draws a 5 per second bucket's refills between two peeks a second apart: a saw-tooth", () => {
    const samples = [
      { t: 10_000, remaining: 0, fullInMs: 1_000 },
      { t: 11_000, remaining: 0, fullInMs: 1_000 },
    ];
    expect(levelSteps(fivePerSecond, samples, 12_000, 10)).toEqual([
      { t: 10_000, remaining: 0 },
      { t: 10_200, remaining: 1 },
      { t: 10_400, remaining: 2 },
      { t: 10_600, remaining: 3 },
      { t: 10_800, remaining: 4 },
      { t: 11_000, remaining: 0 },
      { t: 11_200, remaining: 1 },
      { t: 11_400, remaining: 2 },
      { t: 11_600, remaining: 3 },
      { t: 11_800, remaining: 4 },
      { t: 12_000, remaining: 5 },
    ]);
  });

  it("places the first refill by the time to full, not on the peek", () => {
    const points = levelSteps(fivePerSecond, [{ t: 0, remaining: 3, fullInMs: 350 }], 1_000, 1);
    expect(points).toEqual([
      { t: 0, remaining: 3 },
      { t: 150, remaining: 4 },
      { t: 350, remaining: 5 },
      { t: 1_000, remaining: 5 },
    ]);
  });

  it("draws a fast bucket no finer than the step asked, each level exact", () => {
    const thousand = { count: 1_000, periodMs: 1_000 };
    const points = levelSteps(thousand, [{ t: 0, remaining: 0, fullInMs: 1_000 }], 1_000, 250);
    expect(points).toEqual([
      { t: 0, remaining: 0 },
      { t: 250, remaining: 250 },
      { t: 500, remaining: 500 },
      { t: 750, remaining: 750 },
      { t: 1_000, remaining: 1_000 },
    ]);
  });

  it("draws nothing without samples", () => {
    expect(levelSteps(fivePerSecond, [], 1_000, 10)).toEqual([]);
  });
});

describe("lowestOf", () => {
  it("finds the lowest level within the window and when it began", () => {
    const points = [
      { t: 0, remaining: 0 },
      { t: 500, remaining: 2 },
      { t: 800, remaining: 1 },
      { t: 900, remaining: 5 },
    ];
    expect(lowestOf(points, 0, 1_000)).toEqual({ t: 0, remaining: 0 });
    expect(lowestOf(points, 600, 1_000)).toEqual({ t: 800, remaining: 1 });
    expect(lowestOf(points, 850, 1_000)).toEqual({ t: 850, remaining: 1 });
    expect(lowestOf([], 0, 1)).toBeNull();
  });
});

describe("undrawnMs", () => {
  it("is the part of the window before the first point, 0 when drawn from its start", () => {
    const points = [
      { t: 1_000, remaining: 5 },
      { t: 4_000, remaining: 2 },
    ];
    expect(undrawnMs(points, 0, 10_000)).toBe(1_000);
    expect(undrawnMs(points, 1_000, 10_000)).toBe(0);
    expect(undrawnMs(points, 2_000, 10_000)).toBe(0);
    expect(undrawnMs([], 0, 10_000)).toBe(10_000);
    expect(undrawnMs([{ t: 20_000, remaining: 1 }], 0, 10_000)).toBe(10_000);
  });
});
