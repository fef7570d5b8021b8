import { describe, expect, it } from "vitest";
import { peakOf, windowOf } from "@/lib/usage/near-limit";
import { HOUR_MS, MINUTE_MS } from "@/lib/usage/time";
import { type Level, planPieces } from "@/lib/usage/usage-read";

const H = HOUR_MS;
const M = MINUTE_MS;

const D = 24 * H;

/** levels are the three tables with the given watermarks (days, hours), minutes always. */
const levels = (days: number | undefined, hours: number | undefined): Level[] => [
  { table: "days", stepMs: D, throughMs: days },
  { table: "hours", stepMs: H, throughMs: hours },
  { table: "minutes", stepMs: M, throughMs: undefined },
];

describe("planPieces", () => {
  it("reads minutes alone before the first fold, or after the watermarks", () => {
    expect(planPieces(10 * H, 12 * H, levels(undefined, undefined), 0)).toEqual([
      { table: "minutes", fromMs: 10 * H, toMs: 12 * H },
    ]);
    expect(planPieces(10 * H, 12 * H, levels(0, 9 * H), 0)).toEqual([
      { table: "minutes", fromMs: 10 * H, toMs: 12 * H },
    ]);
  });

  it("reads whole folded hours from hour rows and every other part from minute rows, once", () => {
    expect(planPieces(10 * H + 30 * M, 14 * H + 5 * M, levels(0, 13 * H), 0)).toEqual([
      { table: "minutes", fromMs: 10 * H + 30 * M, toMs: 11 * H },
      { table: "hours", fromMs: 11 * H, toMs: 13 * H },
      { table: "minutes", fromMs: 13 * H, toMs: 14 * H + 5 * M },
    ]);
    expect(planPieces(10 * H, 12 * H + 15 * M, levels(0, 13 * H), 0)).toEqual([
      { table: "hours", fromMs: 10 * H, toMs: 12 * H },
      { table: "minutes", fromMs: 12 * H, toMs: 12 * H + 15 * M },
    ]);
  });

  it("reads whole folded days from day rows, then hours, then minutes", () => {
    expect(planPieces(D - 90 * M, 3 * D + 2 * H + 10 * M, levels(3 * D, 3 * D + 2 * H), 0)).toEqual(
      [
        { table: "minutes", fromMs: D - 90 * M, toMs: D - H },
        { table: "hours", fromMs: D - H, toMs: D },
        { table: "days", fromMs: D, toMs: 3 * D },
        { table: "hours", fromMs: 3 * D, toMs: 3 * D + 2 * H },
        { table: "minutes", fromMs: 3 * D + 2 * H, toMs: 3 * D + 2 * H + 10 * M },
      ],
    );
  });

  it("widens a start to its hour where minute rows are gone", () => {
    expect(planPieces(10 * H + 30 * M, 14 * H, levels(0, 13 * H), 11 * H)).toEqual([
      { table: "hours", fromMs: 10 * H, toMs: 13 * H },
      { table: "minutes", fromMs: 13 * H, toMs: 14 * H },
    ]);
  });
});

describe("near-limit windows", () => {
  it("measures a limit over whole steps: k = ceil(period / step), allowance = count × window / period", () => {
    expect(windowOf({ count: 10, periodMs: 1_000 }, M)).toEqual({
      steps: 1,
      windowMs: M,
      allowanceTokens: 600,
    });
    expect(windowOf({ count: 100, periodMs: H }, M)).toEqual({
      steps: 60,
      windowMs: H,
      allowanceTokens: 100,
    });
    expect(windowOf({ count: 90, periodMs: 90_000 }, M)).toEqual({
      steps: 2,
      windowMs: 2 * M,
      allowanceTokens: 120,
    });
  });

  it("slides the window over sparse steps and finds the busiest", () => {
    const step = (minute: number, tokensTaken: number) => ({
      customerId: 1,
      operation: "read" as const,
      startMs: minute * M,
      tokensTaken,
    });
    const steps = [step(0, 5), step(1, 5), step(3, 7), step(4, 1), step(9, 6)];
    expect(peakOf(steps, 3 * M, M)).toEqual({ peakTokens: 12, peakStartMs: 1 * M });
    expect(peakOf(steps, M, M)).toEqual({ peakTokens: 7, peakStartMs: 3 * M });
    expect(peakOf(steps, 10 * M, M)).toEqual({ peakTokens: 24, peakStartMs: 0 });
    expect(peakOf([], M, M)).toEqual({ peakTokens: 0, peakStartMs: 0 });
  });
});
