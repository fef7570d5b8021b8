import { describe, expect, it } from "vitest";
import {
  MAX_SIMULATED_REQUESTS,
  type Pattern,
  parseTimestamps,
  requestCount,
  timestampsOf,
} from "@/lib/simulator/pattern";

describe("timestampsOf", () => {
  it("spaces a steady rate evenly, in whole milliseconds", () => {
    expect(timestampsOf({ kind: "steady", ratePerSecond: 4, seconds: 1 })).toEqual([
      0, 250, 500, 750,
    ]);
    expect(timestampsOf({ kind: "steady", ratePerSecond: 3, seconds: 1 })).toEqual([0, 333, 666]);
    expect(timestampsOf({ kind: "steady", ratePerSecond: 0.5, seconds: 5 })).toEqual([
      0, 2_000, 4_000,
    ]);
  });

  it("counts 0.3 req/s over 10 s as 3 requests despite float error", () => {
    expect(timestampsOf({ kind: "steady", ratePerSecond: 0.3, seconds: 10 })).toHaveLength(3);
  });

  it("repeats a burst at each interval that starts within the span", () => {
    expect(timestampsOf({ kind: "bursts", size: 2, everySeconds: 1.5, seconds: 4 })).toEqual([
      0, 0, 1_500, 1_500, 3_000, 3_000,
    ]);
  });

  it("ramps the rate linearly per second, first to last", () => {
    const ts = timestampsOf({ kind: "ramp", fromPerSecond: 10, toPerSecond: 50, seconds: 5 });
    const perSecond = [0, 1, 2, 3, 4].map((s) => ts.filter((t) => Math.floor(t / 1000) === s));
    expect(perSecond.map((s) => s.length)).toEqual([10, 20, 30, 40, 50]);
    expect(perSecond[1]?.slice(0, 3)).toEqual([1_000, 1_050, 1_100]);
    expect(timestampsOf({ kind: "ramp", fromPerSecond: 3, toPerSecond: 9, seconds: 1 })).toEqual([
      0, 333, 666,
    ]);
  });

  it("sorts pasted offsets", () => {
    expect(timestampsOf({ kind: "timestamps", offsetsMs: [30, 10, 20, 10] })).toEqual([
      10, 10, 20, 30,
    ]);
  });

  it("requestCount agrees with the timestamps it would build", () => {
    const patterns: Pattern[] = [
      { kind: "steady", ratePerSecond: 7.5, seconds: 9 },
      { kind: "bursts", size: 3, everySeconds: 0.7, seconds: 5 },
      { kind: "ramp", fromPerSecond: 50, toPerSecond: 3, seconds: 12 },
      { kind: "timestamps", offsetsMs: [1, 2, 3] },
    ];
    for (const p of patterns) expect(requestCount(p)).toBe(timestampsOf(p).length);
  });
});

describe("parseTimestamps", () => {
  it("takes commas, semicolons, spaces and new lines", () => {
    expect(parseTimestamps("0, 10\n20;30  40\r\n")).toEqual({
      ok: true,
      offsetsMs: [0, 10, 20, 30, 40],
    });
  });

  it("names the first bad value", () => {
    expect(parseTimestamps("0, 1.5, x")).toEqual({
      ok: false,
      error: "“1.5” is not a whole number of milliseconds",
    });
    expect(parseTimestamps("-3")).toMatchObject({ ok: false });
    expect(parseTimestamps(" \n ")).toEqual({ ok: false, error: "Paste at least one timestamp" });
    expect(parseTimestamps("86400001")).toMatchObject({ ok: false });
  });

  it("caps the number of timestamps", () => {
    const text = "0,".repeat(MAX_SIMULATED_REQUESTS + 1);
    expect(parseTimestamps(text)).toMatchObject({ ok: false });
  });
});
