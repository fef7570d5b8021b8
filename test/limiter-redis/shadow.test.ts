import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { limit } from "@/lib/limiter";
import { RedisLimiter } from "@/lib/limiter-redis";
import { DECIDE } from "@/lib/limiter-redis/script";
import { FakeClock } from "../support/fake-clock";
import { type RedisServer, startRedisServer } from "../support/redis-server";

// A shadow decision (a customer's dry-run limits) rides in its decision's script run: decided
// only when the decision allows, all or nothing over its own buckets, never changing the answer.

interface Input {
  key: string;
  dryRun?: boolean;
}

let server: RedisServer;
let redis: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  redis = server.client();
  // Loaded ahead, so that the counts below are of decisions, not of a first NOSCRIPT.
  await redis.script("LOAD", DECIDE);
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  await redis.flushall();
  await redis.config("RESETSTAT");
});

/** scriptRuns is how many EVALSHA and EVAL calls the server ran since the last RESETSTAT. */
async function scriptRuns(): Promise<number> {
  const info = await redis.info("commandstats");
  let runs = 0;
  for (const match of info.matchAll(/^cmdstat_(evalsha|eval):calls=(\d+)/gm)) {
    runs += Number(match[2]);
  }
  return runs;
}

/** limiterOf enforces 5 a minute and tries 3 a minute (dry run), on one key per input. */
function limiterOf(clock: FakeClock): RedisLimiter<Input> {
  return new RedisLimiter<Input>(
    redis,
    (input) => input.key,
    [(input) => (input.dryRun ? limit(3, "1m") : limit(5, "1m"))],
    { clock },
  );
}

describe("allowNWithShadow", () => {
  it("decides the shadow only for admitted decisions, in the same run, concurrent ones batched", async () => {
    const limiter = limiterOf(new FakeClock(1_000_000));
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        limiter.allowNWithShadow({ key: "a" }, 1, { key: "a", dryRun: true }),
      ),
    );
    expect(results.map((r) => r.details.allowed)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    // Of the five admitted, the 3-a-minute dry-run limit would have admitted three.
    expect(results.map((r) => r.shadow?.allowed ?? null)).toEqual([
      true,
      true,
      true,
      false,
      false,
      null,
      null,
      null,
    ]);
    expect(results[3]?.shadow?.retryAfterMs).toBeGreaterThan(0);
    expect(await scriptRuns()).toBe(1);
  });

  it("interleaves with plain decisions in one batch without taking from their buckets", async () => {
    const limiter = limiterOf(new FakeClock(1_000_000));
    const [shadowed, plain] = await Promise.all([
      limiter.allowNWithShadow({ key: "a" }, 2, { key: "a", dryRun: true }),
      limiter.allowNWithDebug({ key: "b" }, 5),
    ]);
    expect(shadowed.details.tokensRemaining).toBe(3);
    expect(shadowed.shadow?.tokensRemaining).toBe(1);
    expect(plain.allowed).toBe(true);
    expect(plain.tokensRemaining).toBe(0);
    expect(await limiter.peekNWithDebug({ key: "a", dryRun: true }, 1)).toMatchObject({
      tokensRemaining: 1,
    });
    expect(await scriptRuns()).toBe(2);
  });

  it("skips a shadow that would share the decision's own bucket", async () => {
    const limiter = new RedisLimiter<Input>(redis, (input) => input.key, limit(5, "1m"), {
      clock: new FakeClock(1_000_000),
    });
    const result = await limiter.allowNWithShadow({ key: "a" }, 1, { key: "a", dryRun: true });
    expect(result.details.tokensRemaining).toBe(4);
    expect(result.shadow).toBeNull();
  });
});
