import { describe, expect, it } from "vitest";
import { MIN_ROUNDS, ratioSpread, roundOrder, roundsArg, spreadOf } from "../../bench/rounds";

describe("the benchmarks' rounds", () => {
  it("takes the median and range of any count", () => {
    expect(spreadOf([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5 });
    expect(spreadOf([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4 });
    expect(spreadOf([]).median).toBeNaN();
  });

  it("takes a ratio within each round before the median", () => {
    // Round by round 0.5, 0.5, 0.5: the medians' ratio (20 / 40) would say the same here, but
    // a slow round on both sides must not move the ratio.
    expect(ratioSpread([10, 20, 100], [20, 40, 200])).toEqual({ median: 0.5, min: 0.5, max: 0.5 });
    expect(ratioSpread([1, 3, 2], [2, 2, 2])).toEqual({ median: 1, min: 0.5, max: 1.5 });
    expect(() => ratioSpread([1, 2], [1])).toThrow(/one value per round/);
  });

  it("alternates the targets' order from round to round", () => {
    expect(roundOrder(["a", "b", "c"], 0)).toEqual(["a", "b", "c"]);
    expect(roundOrder(["a", "b", "c"], 1)).toEqual(["c", "b", "a"]);
    expect(roundOrder(["a", "b", "c"], 2)).toEqual(["a", "b", "c"]);
  });

  it("runs at least five rounds, and refuses fewer", () => {
    expect(MIN_ROUNDS).toBe(5);
    expect(roundsArg(["node", "bench"])).toBe(5);
    expect(roundsArg(["--rounds", "7"])).toBe(7);
    expect(() => roundsArg(["--rounds", "3"])).toThrow(/at least 5/);
    expect(() => roundsArg(["--rounds", "many"])).toThrow(/whole number/);
  });
});
