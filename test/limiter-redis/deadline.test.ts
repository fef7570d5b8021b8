import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { limit } from "@/lib/limiter";
import {
  Buckets,
  DECIDE,
  DecisionBatcher,
  EXPIRED,
  encodeBatch,
  RedisDeadlineError,
  RedisLimiter,
  type UnansweredOutcome,
} from "@/lib/limiter-redis";
import { FakeClock } from "../support/fake-clock";
import { type RedisServer, startRedisServer } from "../support/redis-server";

// The decision script's deadline: a run that reaches Redis after it takes nothing, by Redis's
// own clock. Frozen servers (SIGSTOP) hold commands in their sockets as a hung Redis does; the
// freezes here last a few hundred ms of real time, the least a timer can notice.

const byInput = (input: string) => input;

let server: RedisServer;
let redis: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  redis = server.client();
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  await redis.flushall();
});

afterEach(() => {
  // A failed test must not leave the server frozen for the next one.
  server.thaw();
});

/** serverMs reads the Redis server's clock in whole milliseconds. */
async function serverMs(): Promise<number> {
  const [seconds, micros] = (await redis.time()) as [string | number, string | number];
  return Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
}

/** decideRaw runs DECIDE once for `decisions` at `at` with a deadline by Redis's clock. */
async function decideRaw(
  decisions: { key: string; take: boolean }[],
  at: number,
  redisDeadline: number,
): Promise<Buffer> {
  const batch = decisions.map(({ key, take }) => {
    const buckets = new Buckets();
    buckets.add("rk", limit(5, "1h"), key);
    return { buckets, n: 1, take };
  });
  const { keys, args } = encodeBatch(batch, at, redisDeadline);
  return (redis as unknown as { evalBuffer(...a: unknown[]): Promise<Buffer> }).evalBuffer(
    DECIDE,
    keys.length,
    ...keys,
    args,
  );
}

/** doubles reads a packed reply. */
function doubles(reply: Buffer): number[] {
  return Array.from({ length: reply.length / 8 }, (_, i) => reply.readDoubleBE(8 * i));
}

/** sleep waits on the wall clock: only for a frozen server, which real time alone can notice. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** outcomes collects what a batcher reports of decisions answered without their reply. */
function outcomes(): {
  seen: Partial<Record<UnansweredOutcome, number>>;
  report: (o: UnansweredOutcome, n: number) => void;
} {
  const seen: Partial<Record<UnansweredOutcome, number>> = {};
  return { seen, report: (o, n) => (seen[o] = (seen[o] ?? 0) + n) };
}

describe("DECIDE: the deadline, by Redis's own clock", () => {
  it("refuses a lone decision past its deadline and takes nothing, on the server's clock", async () => {
    const now = await serverMs();
    // One in time stores the bucket (so the next reads Redis's clock from its expiry).
    expect(doubles(await decideRaw([{ key: "a", take: true }], Number.NaN, now + 60_000))[1]).toBe(
      1,
    );
    const stored = await redis.getBuffer("rk:{a}:5/3600000");
    const late = doubles(await decideRaw([{ key: "a", take: true }], Number.NaN, now - 1_000));
    expect(late).toHaveLength(2);
    expect(late[1]).toBe(EXPIRED);
    // The reply's time is the server's: past the deadline.
    expect(late[0]).toBeGreaterThan(now - 1_000);
    expect(await redis.getBuffer("rk:{a}:5/3600000")).toEqual(stored);
    // Never stored: nothing written either.
    expect(doubles(await decideRaw([{ key: "b", take: true }], Number.NaN, now - 1))[1]).toBe(
      EXPIRED,
    );
    expect(await redis.exists("rk:{b}:5/3600000")).toBe(0);
  });

  it("refuses a batch past its deadline as a whole, taking nothing from any decision", async () => {
    const now = await serverMs();
    const decisions = [
      { key: "a", take: true },
      { key: "b", take: false },
      { key: "c", take: true },
    ];
    expect(doubles(await decideRaw(decisions, Number.NaN, now - 5))[1]).toBe(EXPIRED);
    expect(await redis.keys("rk:*")).toEqual([]);
    // The same batch in time runs: three outcomes, two buckets written.
    const inTime = doubles(await decideRaw(decisions, Number.NaN, now + 60_000));
    expect([inTime[1], inTime[3], inTime[5]]).toEqual([1, 1, 1]);
    expect((await redis.keys("rk:*")).sort()).toEqual(["rk:{a}:5/3600000", "rk:{c}:5/3600000"]);
  });

  it("reads the deadline on the server's clock with an injected clock, and ends the reply with it", async () => {
    const now = await serverMs();
    // Decided at an injected 1,000 ms, far from the server's time: the deadline is the server's.
    const late = doubles(await decideRaw([{ key: "a", take: true }], 1_000, now - 1));
    expect(late.slice(0, 2)).toEqual([1_000, EXPIRED]);
    expect(late[2]).toBeGreaterThanOrEqual(now);
    const batchLate = doubles(
      await decideRaw(
        [
          { key: "a", take: true },
          { key: "b", take: true },
        ],
        1_000,
        now - 1,
      ),
    );
    expect(batchLate.slice(0, 2)).toEqual([1_000, EXPIRED]);
    expect(await redis.keys("rk:*")).toEqual([]);
    const inTime = doubles(await decideRaw([{ key: "a", take: true }], 1_000, now + 60_000));
    expect(inTime.slice(0, 2)).toEqual([1_000, 1]);
    expect(inTime.at(-1)).toBeGreaterThanOrEqual(now);
  });
});

describe("RedisLimiter with a timeout: a run that comes too late takes nothing", () => {
  it("rejects a decision Redis does not run in time, and Redis refuses it when it resumes", async () => {
    const { seen, report } = outcomes();
    const batcher = new DecisionBatcher(redis, { onUnanswered: report });
    const limiter = new RedisLimiter(redis, byInput, limit(5, "1h"), { timeoutMs: 100, batcher });
    expect(await limiter.allow("k")).toBe(true);
    server.freeze();
    const started = performance.now();
    const frozen = await Promise.allSettled([limiter.allow("k"), limiter.allowN("k", 2)]);
    const waited = performance.now() - started;
    expect(frozen.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect((frozen[0] as PromiseRejectedResult).reason).toBeInstanceOf(RedisDeadlineError);
    // The timeout, plus the offset's error and a ms or two: not much more.
    expect(waited).toBeGreaterThanOrEqual(100);
    expect(waited).toBeLessThan(1_000);
    await sleep(50);
    server.thaw();
    // Commands on one connection run in order: this peek runs after the held batch.
    expect(await limiter.peekWithDetails("k")).toMatchObject({ tokensRemaining: 4 });
    expect(seen).toEqual({ expired: 2 });
  });

  it("takes nothing from the dry-run buckets of a decision that came too late", async () => {
    const limiter = new RedisLimiter<{ key: string; dryRun?: boolean }>(
      redis,
      (input) => input.key,
      [(input) => (input.dryRun ? limit(3, "1m") : limit(5, "1m"))],
      { timeoutMs: 100 },
    );
    const first = await limiter.allowNWithShadow({ key: "k" }, 1, { key: "k", dryRun: true });
    expect(first.shadow?.tokensRemaining).toBe(2);
    server.freeze();
    await expect(
      limiter.allowNWithShadow({ key: "k" }, 1, { key: "k", dryRun: true }),
    ).rejects.toBeInstanceOf(RedisDeadlineError);
    await sleep(50);
    server.thaw();
    expect((await limiter.peekWithDetails({ key: "k" })).tokensRemaining).toBe(4);
    expect((await limiter.peekWithDetails({ key: "k", dryRun: true })).tokensRemaining).toBe(2);
  });

  it("counts a run in time whose reply came after the caller stopped waiting: the remaining case", async () => {
    // Deadlines on a test clock: the wait is called off when the test says so, while Redis's
    // deadline (a minute away in its time) is still far.
    const clock = new FakeClock(0);
    const { seen, report } = outcomes();
    const batcher = new DecisionBatcher(redis, { clock, onUnanswered: report });
    const limiter = new RedisLimiter(redis, byInput, limit(5, "1h"), {
      timeoutMs: 60_000,
      batcher,
    });
    expect(await limiter.allow("k")).toBe(true);
    server.freeze();
    const late = limiter.allow("k");
    const refused = limiter.peek("k");
    await sleep(20);
    clock.advance(61_000);
    await expect(late).rejects.toBeInstanceOf(RedisDeadlineError);
    await expect(refused).rejects.toBeInstanceOf(RedisDeadlineError);
    expect(seen).toEqual({});
    server.thaw();
    expect((await limiter.peekWithDetails("k")).tokensRemaining).toBe(3);
    // The allow ran in time and took its token: counted as charged; the peek took nothing.
    expect(seen).toEqual({ charged: 1, not_charged: 1 });
  });

  it("compares clocks before the first decision, and sends nothing when Redis does not answer", async () => {
    // A client of its own: its batcher has compared no clocks yet.
    const fresh = server.client();
    await fresh.ping();
    const limiter = new RedisLimiter(fresh, byInput, limit(5, "1h"), { timeoutMs: 100 });
    server.freeze();
    await expect(limiter.allow("k")).rejects.toThrow(/the decision was not sent/);
    await sleep(50);
    server.thaw();
    expect((await limiter.peekWithDetails("k")).tokensRemaining).toBe(5);
    expect(await redis.keys("rk:*")).toEqual([]);
  });

  it("refuses a timeout that is not a positive number of ms a timer can wait, and a client whose own command timeout would answer first", () => {
    for (const timeoutMs of [0, -1, Number.NaN, 2 ** 31]) {
      expect(() => new RedisLimiter(redis, byInput, limit(1, "1s"), { timeoutMs })).toThrow(
        RangeError,
      );
    }
    expect(
      new RedisLimiter(redis, byInput, limit(1, "1s"), { timeoutMs: Number.POSITIVE_INFINITY })
        .timeoutMs,
    ).toBe(Number.POSITIVE_INFINITY);
    const timed = server.client();
    timed.options.commandTimeout = 100;
    expect(() => new RedisLimiter(timed, byInput, limit(1, "1s"), { timeoutMs: 200 })).toThrow(
      /commandTimeout/,
    );
    expect(
      () =>
        new RedisLimiter(redis, byInput, limit(1, "1s"), { batcher: new DecisionBatcher(timed) }),
    ).toThrow(/same client|limiter's client/);
  });
});
