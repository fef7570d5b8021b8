import { describe, expect, it } from "vitest";
import { appendSample, samplesSince } from "@/components/charts/sample-window";

const bounds = { maxAgeMs: 3_000, maxLength: 10 };
const s = (t: number) => ({ t, v: t / 1000 });

describe("appendSample", () => {
  it("appends without touching the input", () => {
    const before = [s(0), s(1_000)];
    const after = appendSample(before, s(2_000), bounds);
    expect(after).toEqual([s(0), s(1_000), s(2_000)]);
    expect(before).toHaveLength(2);
  });

  it("drops samples older than maxAgeMs behind the newest", () => {
    let w: readonly ReturnType<typeof s>[] = [];
    for (let t = 0; t <= 6_000; t += 1_000) w = appendSample(w, s(t), bounds);
    expect(w.map((x) => x.t)).toEqual([3_000, 4_000, 5_000, 6_000]);
  });

  // Regression: the sample that sets a window's left edge was dropped once it aged past it.
  it("keeps the last sample at or before the window's start", () => {
    let w: readonly ReturnType<typeof s>[] = [s(0), s(2_500)];
    w = appendSample(w, s(3_500), bounds);
    expect(w.map((x) => x.t)).toEqual([0, 2_500, 3_500]);
    w = appendSample(w, s(6_000), bounds);
    expect(w.map((x) => x.t)).toEqual([2_500, 3_500, 6_000]);
  });

  it("keeps at most maxLength samples", () => {
    let w: readonly ReturnType<typeof s>[] = [];
    for (let t = 0; t < 50; t++) w = appendSample(w, s(t), bounds);
    expect(w.map((x) => x.t)).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
  });

  it("ignores a sample not newer than the last (a repeated or late poll)", () => {
    const w = [s(1_000), s(2_000)];
    expect(appendSample(w, s(2_000), bounds)).toBe(w);
    expect(appendSample(w, s(1_500), bounds)).toBe(w);
  });
});

describe("samplesSince", () => {
  it("keeps the samples at or after a time", () => {
    expect(samplesSince([s(0), s(1_000), s(2_000)], 1_000)).toEqual([s(1_000), s(2_000)]);
    expect(samplesSince([s(0)], 5_000)).toEqual([]);
  });
});
