import { describe, expect, it } from "vitest";
import { Limiter, limit } from "@/lib/limiter";
import { replayBucket, takesOf } from "@/lib/usage/bucket-history";
import { TrafficLog } from "@/lib/usage/traffic-log";
import { FakeClock } from "../support/fake-clock";

const T0 = 1_700_000_000_000;
const second = (t: number, taken: number, firstMs = 0, lastMs = firstMs, allowed = taken) => ({
  t,
  allowed,
  denied: 0,
  taken,
  firstMs,
  lastMs,
});

describe("takesOf", () => {
  it("keeps a burst one moment and spreads a stream from its first to its last decision", () => {
    expect(takesOf(second(T0, 5, 300))).toEqual([{ atMs: T0 + 300, n: 5 }]);
    expect(takesOf(second(T0, 5, 0, 800))).toEqual(
      [0, 200, 400, 600, 800].map((ms) => ({ atMs: T0 + ms, n: 1 })),
    );
    expect(takesOf(second(T0, 100, 0, 900, 100))).toHaveLength(10);
    expect(takesOf(second(T0, 100, 0, 900, 100)).reduce((sum, take) => sum + take.n, 0)).toBe(100);
    expect(takesOf(second(T0, 6, 100, 100, 2))).toEqual([{ atMs: T0 + 100, n: 6 }]);
    expect(takesOf(second(T0, 0))).toEqual([]);
  });
});

describe("replayBucket", () => {
  // Regression: the inspector's charts started empty, so a customer refused a minute ago showed
  // full buckets. The replay puts the burst back where it was.
  it("replays a burst of 25 reads on 5 per second: empty at the burst, a token every 200 ms", () => {
    const clock = new FakeClock(T0 + 2_400);
    const limiter = new Limiter((k: string) => k, limit(5, "1s"), { clock });
    const log = new TrafficLog(300);
    for (let i = 0; i < 25; i++) {
      const allowed = limiter.allow("k");
      log.record(1, "read", allowed, clock.now());
    }
    clock.set(T0 + 60_000);
    const seconds = log.takenSeconds(clock.now(), 60, [1]).get("1|read") ?? [];
    const peek = limiter.peekWithDebug("k").buckets[0];
    const samples = replayBucket(limit(5, "1s"), seconds, T0, T0 + 60_000, peek);
    expect(samples).toEqual([
      { t: T0, remaining: 5, fullInMs: 0 },
      { t: T0 + 2_400, remaining: 0, fullInMs: 1_000 },
      { t: T0 + 60_000, remaining: 5, fullInMs: 0 },
    ]);
  });

  it("starts where the bucket must have been for its takes to end as peeked", () => {
    // 100 per hour: 90 taken two minutes before the seconds held, 5 within them.
    const hourly = limit(100, "1h");
    const clock = new FakeClock(T0 - 120_000);
    const limiter = new Limiter((k: string) => k, hourly, { clock });
    limiter.allowN("k", 90);
    clock.set(T0);
    const atStart = limiter.peekWithDebug("k").buckets[0];
    clock.set(T0 + 10_000);
    limiter.allowN("k", 5);
    const afterTake = limiter.peekWithDebug("k").buckets[0];
    clock.set(T0 + 20_000);
    const peek = limiter.peekWithDebug("k").buckets[0];
    const samples = replayBucket(hourly, [second(T0 + 10_000, 5)], T0, T0 + 20_000, peek);
    expect(samples.map((s) => s.remaining)).toEqual([
      atStart?.tokensRemaining,
      afterTake?.tokensRemaining,
      peek?.tokensRemaining,
    ]);
    expect(samples[0]?.remaining).toBe(13);
    expect(samples.at(-1)?.fullInMs).toBeCloseTo(peek?.fullInMs ?? Number.NaN, 6);
  });

  it("keeps a steady stream at the refill rate near full, as the limiter had it", () => {
    const seconds = [0, 1, 2].map((s) => second(T0 + s * 1_000, 5, 0, 800));
    const samples = replayBucket(limit(5, "1s"), seconds, T0, T0 + 3_000);
    expect(Math.min(...samples.map((s) => s.remaining))).toBe(4);
  });

  it("without a peek, starts full", () => {
    const samples = replayBucket(limit(2, "1m"), [second(T0 + 1_000, 1)], T0, T0 + 2_000);
    expect(samples.map((s) => [s.t - T0, s.remaining])).toEqual([
      [0, 2],
      [1_000, 1],
      [2_000, 1],
    ]);
  });
});
