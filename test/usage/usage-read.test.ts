import { describe, expect, it } from "vitest";
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
