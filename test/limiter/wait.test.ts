import { describe, expect, it } from "vitest";
import { combine, Limiter, limit } from "@/lib/limiter";
import { FakeClock, settled } from "../support/fake-clock";

const byKey = (key: string) => key;

/** drained returns a 2-per-second limiter (a token is 500 ms) whose "k" bucket is empty at 0. */
function drained() {
  const clock = new FakeClock(0);
  const limiter = new Limiter(byKey, limit(2, "1s"), { clock });
  limiter.allowN("k", 2);
  return { clock, limiter };
}

describe("wait", () => {
  it("resolves at once when allowed, with the decision's details", async () => {
    const clock = new FakeClock(100);
    const limiter = new Limiter(byKey, limit(2, "1s"), { clock });
    await expect(limiter.wait("k")).resolves.toEqual({
      allowed: true,
      executionTime: 100,
      tokensRequested: 1,
      tokensConsumed: 1,
      tokensRemaining: 1,
      retryAfterMs: 0,
    });
    expect(clock.pendingSleeps).toBe(0);
  });

  it("resolves once the retry-after has passed, and not before", async () => {
    const { clock, limiter } = drained();
    const waiting = limiter.wait("k");
    expect(clock.pendingSleeps).toBe(1);
    clock.advance(499);
    expect(await settled(waiting)).toBe("pending");
    clock.advance(1);
    await expect(waiting).resolves.toMatchObject({
      allowed: true,
      executionTime: 500,
      tokensConsumed: 1,
      tokensRemaining: 0,
    });
    expect(limiter.peek("k")).toBe(false);
  });

  it("waits for a cost with waitN", async () => {
    const { clock, limiter } = drained();
    clock.advance(250);
    const waiting = limiter.waitN("k", 2);
    clock.advance(749);
    expect(await settled(waiting)).toBe("pending");
    clock.advance(1);
    await expect(waiting).resolves.toMatchObject({ executionTime: 1_000, tokensConsumed: 2 });
  });

  it("sleeps again when another caller takes the token first", async () => {
    const { clock, limiter } = drained();
    const waiting = limiter.wait("k");
    clock.advance(500);
    // The sleep is resolved but the waiter has not run yet: this allow wins the token.
    expect(limiter.allow("k")).toBe(true);
    expect(await settled(waiting)).toBe("pending");
    expect(clock.pendingSleeps).toBe(1);
    clock.advance(500);
    await expect(waiting).resolves.toMatchObject({ executionTime: 1_000, allowed: true });
  });

  it("rejects with the signal's reason on abort, and takes nothing", async () => {
    const { clock, limiter } = drained();
    const controller = new AbortController();
    const waiting = limiter.wait("k", { signal: controller.signal });
    clock.advance(100);
    const reason = new Error("client went away");
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(clock.pendingSleeps).toBe(0);
    clock.advance(400);
    expect(limiter.peekWithDetails("k").tokensRemaining).toBe(1);
  });

  it("rejects with the default AbortError reason when aborted without one", async () => {
    const { limiter } = drained();
    const controller = new AbortController();
    const waiting = limiter.wait("k", { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toBe(controller.signal.reason);
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects at once with an already-aborted signal, consuming nothing", async () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(2, "1s"), { clock });
    const reason = new Error("too late");
    await expect(limiter.wait("k", { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(limiter.size).toBe(0);
  });

  it("rejects at once with a RangeError when n exceeds a limit's count", async () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, [limit(5, "1s"), limit(2, "1s")], { clock });
    const waiting = limiter.waitN("k", 3);
    expect(clock.pendingSleeps).toBe(0);
    await expect(waiting).rejects.toBeInstanceOf(RangeError);
    await expect(waiting).rejects.toThrow(/\bn\b/);
    expect(limiter.size).toBe(0);
  });

  it("rejects a bad n with a RangeError", async () => {
    const { limiter } = drained();
    await expect(limiter.waitN("k", -1)).rejects.toBeInstanceOf(RangeError);
    await expect(limiter.waitN("k", 0.5)).rejects.toThrow(/\bn\b/);
  });

  it("waits on a combination until every limiter allows", async () => {
    const clock = new FakeClock(0);
    const fast = new Limiter(byKey, limit(1, 100), { clock });
    const slow = new Limiter(byKey, limit(1, 1_000), { clock });
    const both = combine(fast, slow);
    expect(both.allow("k")).toBe(true);
    const waiting = both.wait("k");
    clock.advance(999);
    expect(await settled(waiting)).toBe("pending");
    clock.advance(1);
    await expect(waiting).resolves.toMatchObject({ executionTime: 1_000, allowed: true });
  });
});
