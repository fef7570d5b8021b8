import { describe, expect, it } from "vitest";
import { every } from "@/lib/clock";
import { FakeClock, flush } from "../support/fake-clock";

describe("every", () => {
  it("runs the task once per period of the clock, one run at a time, until stopped", async () => {
    const clock = new FakeClock(0);
    const runs: number[] = [];
    let finish: (() => void) | undefined;
    const stop = every(clock, 1_000, async () => {
      runs.push(clock.now());
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    await flush();
    clock.advance(999);
    await flush();
    expect(runs).toEqual([]);
    clock.advance(1);
    await flush();
    expect(runs).toEqual([1_000]);
    // The run has not settled: however far time moves, no second run starts.
    clock.advance(5_000);
    await flush();
    expect(runs).toEqual([1_000]);
    finish?.();
    await flush();
    // The next period starts when the run settles.
    clock.advance(1_000);
    await flush();
    expect(runs).toEqual([1_000, 7_000]);
    finish?.();
    await flush();
    stop();
    clock.advance(10_000);
    await flush();
    expect(runs).toEqual([1_000, 7_000]);
    expect(clock.pendingSleeps).toBe(0);
  });

  it("goes on after a run that throws", async () => {
    const clock = new FakeClock(0);
    let runs = 0;
    const stop = every(clock, 10, () => {
      runs += 1;
      throw new Error("a failing task");
    });
    for (let i = 0; i < 3; i++) {
      await flush();
      clock.advance(10);
    }
    await flush();
    expect(runs).toBe(3);
    stop();
  });

  it("refuses a period that is not positive", () => {
    expect(() => every(new FakeClock(0), 0, () => {})).toThrow(RangeError);
  });
});
