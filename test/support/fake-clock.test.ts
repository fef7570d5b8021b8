import { describe, expect, it } from "vitest";
import { FakeClock, settled } from "./fake-clock";

describe("FakeClock", () => {
  it("starts where it is told and moves only on advance or set", () => {
    const clock = new FakeClock(1_000);
    expect(clock.now()).toBe(1_000);
    clock.advance(250);
    expect(clock.now()).toBe(1_250);
    clock.set(10);
    expect(clock.now()).toBe(10);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(clock.now()).toBe(10);
  });

  it("resolves a sleep once time reaches its deadline, not before", async () => {
    const clock = new FakeClock(0);
    const sleep = clock.sleep(100);
    expect(clock.pendingSleeps).toBe(1);
    clock.advance(99);
    expect(await settled(sleep)).toBe("pending");
    clock.advance(1);
    expect(await settled(sleep)).toBe("fulfilled");
    expect(clock.pendingSleeps).toBe(0);
  });

  it("resolves a zero sleep at once and a sleep passed by set", async () => {
    const clock = new FakeClock(5);
    expect(await settled(clock.sleep(0))).toBe("fulfilled");
    const sleep = clock.sleep(10);
    clock.set(100);
    expect(await settled(sleep)).toBe("fulfilled");
  });

  it("rejects a sleep with the signal's reason on abort, and at once if already aborted", async () => {
    const clock = new FakeClock(0);
    const controller = new AbortController();
    const sleep = clock.sleep(100, controller.signal);
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(sleep).rejects.toBe(reason);
    expect(clock.pendingSleeps).toBe(0);
    await expect(clock.sleep(1, controller.signal)).rejects.toBe(reason);
    expect(clock.pendingSleeps).toBe(0);
  });
});
