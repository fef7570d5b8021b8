import type { Command, Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { type Clock, limit } from "@/lib/limiter";
import { DecisionBatcher, MAX_BATCH, RedisLimiter } from "@/lib/limiter-redis";
import { DeadlineWatch } from "@/lib/limiter-redis/deadline-watch";
import { FakeClock, flush } from "../support/fake-clock";

// One timer for every script run in flight: what it gives up on, when, and how often it arms.

/** countingClock is `fake` counting the sleeps started on it (each one a timer in production). */
function countingClock(fake: FakeClock, early = 0): Clock & { sleeps: number } {
  const clock = {
    sleeps: 0,
    now: () => fake.now(),
    sleep(ms: number, signal?: AbortSignal) {
      clock.sleeps++;
      // A timer may fire a little early: the first sleep here ends `early` ms before its time.
      return fake.sleep(clock.sleeps === 1 ? Math.max(0, ms - early) : ms, signal);
    },
  };
  return clock;
}

/** item is something watched until `giveUpAt`, noting in `given` when it is given up. */
function item(name: string, giveUpAt: number, given: string[]) {
  return { giveUpAt, giveUp: () => given.push(name) };
}

describe("DeadlineWatch", () => {
  it("gives up on each at its time, in order, with one sleep for all of them", async () => {
    const fake = new FakeClock(0);
    const watch = new DeadlineWatch(countingClock(fake));
    const given: string[] = [];
    const c = item("c", 150, given);
    for (const i of [item("a", 100, given), item("b", 50, given), c, item("d", Infinity, given)]) {
      watch.add(i);
    }
    expect(fake.pendingSleeps).toBe(1);
    expect(watch.size).toBe(3);
    fake.advance(49);
    await flush();
    expect(given).toEqual([]);
    fake.advance(1);
    await flush();
    expect(given).toEqual(["b"]);
    expect(fake.pendingSleeps).toBe(1);
    fake.advance(50);
    await flush();
    expect(given).toEqual(["b", "a"]);
    // Answered before its time: never given up; the sleep armed for it ends and is not renewed.
    watch.forget(c);
    fake.advance(100);
    await flush();
    expect(given).toEqual(["b", "a"]);
    expect(fake.pendingSleeps).toBe(0);
    expect(watch.size).toBe(0);
  });

  it("arms once per timeout, not once per run, for runs that follow one another", async () => {
    const fake = new FakeClock(0);
    const clock = countingClock(fake);
    const watch = new DeadlineWatch(clock);
    const given: string[] = [];
    // 450 runs, one a ms, each answered before the next, each with 200 ms to answer.
    for (let i = 0; i < 450; i++) {
      const run = item(String(i), fake.now() + 200, given);
      watch.add(run);
      watch.forget(run);
      fake.advance(1);
      await flush();
    }
    expect(given).toEqual([]);
    // Armed by the first run for 200 ms; when that ends no run is in flight, so the next run arms
    // it again: about once per 200 ms, where a timer per run made 450.
    expect(clock.sleeps).toBeLessThanOrEqual(3);
  });

  it("arms again for an earlier deadline, and for one still to come when its sleep ends early", async () => {
    const fake = new FakeClock(0);
    const watch = new DeadlineWatch(countingClock(fake, 10));
    const given: string[] = [];
    watch.add(item("late", 300, given));
    watch.add(item("early", 100, given));
    // The first sleep (for 300) was replaced by one for 100, which ends at 90 (10 ms early).
    expect(fake.pendingSleeps).toBe(1);
    fake.advance(90);
    await flush();
    expect(given).toEqual([]);
    fake.advance(10);
    await flush();
    expect(given).toEqual(["early"]);
    fake.advance(200);
    await flush();
    expect(given).toEqual(["early", "late"]);
  });
});

/**
 * fakeRedis answers every decision script at once, allowing each decision, at Redis's time
 * `clock.now() + offsetMs` (TIME too), and counts the script runs sent.
 */
function fakeRedis(clock: FakeClock, offsetMs: number): { redis: Redis; runs: () => number } {
  let runs = 0;
  const redisNow = () => clock.now() + offsetMs;
  const fake = {
    status: "ready",
    options: {},
    time: async () => [
      String(Math.floor(redisNow() / 1_000)),
      String((redisNow() % 1_000) * 1_000),
    ],
    sendCommand(command: Command) {
      runs++;
      // DECIDE's argument: the time and deadline, then per decision its bucket count m and 4
      // doubles per bucket. The reply: the time, then per decision 1 and each bucket's units.
      const args = command.args.at(-1) as Buffer;
      const reply = [redisNow()];
      for (let at = 16; at < args.length; ) {
        const m = Math.abs(args.readDoubleBE(at));
        reply.push(1, ...Array.from({ length: m }, () => 1e12));
        at += 8 + 32 * m;
      }
      const packed = Buffer.alloc(8 * reply.length);
      for (const [i, value] of reply.entries()) packed.writeDoubleBE(value, 8 * i);
      return Promise.resolve(packed);
    },
  };
  return { redis: fake as unknown as Redis, runs: () => runs };
}

describe("DecisionBatcher: one timer for the script runs in flight", () => {
  it("arms its deadline timer about once per timeout, whatever the decisions", async () => {
    // Regression: each script run set a timer of its own and cleared it on its reply, a large
    // part of a lone decision's time on the client.
    const fake = new FakeClock(0);
    const clock = countingClock(fake);
    const { redis, runs } = fakeRedis(fake, 5_000);
    const batcher = new DecisionBatcher(redis, { clock });
    const byInput = (input: string) => input;
    const limiter = new RedisLimiter(redis, byInput, limit(1_000, "1h"), {
      timeoutMs: 200,
      batcher,
    });
    await batcher.compareClocks();
    for (let i = 0; i < 450; i++) {
      expect(await limiter.allow(`k${i % 3}`)).toBe(true);
      fake.advance(1);
    }
    const burst = await Promise.all(
      Array.from({ length: 3 * MAX_BATCH }, () => limiter.allow("k")),
    );
    expect(burst.every(Boolean)).toBe(true);
    expect(runs()).toBe(450 + 3);
    expect(clock.sleeps).toBeLessThanOrEqual(3);
  });
});
