import fc from "fast-check";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  combine,
  type DebugDetails,
  type Details,
  Limiter,
  levelAfter,
  type QuotaDetails,
  quota,
  type WaitOptions,
} from "@/lib/limiter";
import { combineRedis, RedisLimiter } from "@/lib/limiter-redis";
import { expectRetry } from "../support/expect-retry";
import { FakeClock } from "../support/fake-clock";
import { type RedisServer, startRedisServer } from "../support/redis-server";
import {
  type BucketOutcome,
  type LimiterSpec,
  propertyLimitsArb,
  propertyStartArb,
  propertyStepsArb,
  type QuotaOutcome,
  type SharedCase,
  type Step,
  sharedCases,
} from "./shared-cases";
import { sharedQuotaCases } from "./shared-quota-cases";

/** AsyncDecider is the method set both paths offer, as Promises. */
interface AsyncDecider {
  allow(input: string): Promise<boolean>;
  allowN(input: string, n: number): Promise<boolean>;
  allowWithDetails(input: string): Promise<Details>;
  allowNWithDetails(input: string, n: number): Promise<Details>;
  allowWithDebug(input: string): Promise<DebugDetails<unknown>>;
  allowNWithDebug(input: string, n: number): Promise<DebugDetails<unknown>>;
  peek(input: string): Promise<boolean>;
  peekN(input: string, n: number): Promise<boolean>;
  peekWithDetails(input: string): Promise<Details>;
  peekNWithDetails(input: string, n: number): Promise<Details>;
  peekWithDebug(input: string): Promise<DebugDetails<unknown>>;
  peekNWithDebug(input: string, n: number): Promise<DebugDetails<unknown>>;
  waitN(input: string, n: number, options?: WaitOptions): Promise<Details>;
}

/** Harness is one case's limiters built on one path. */
interface Harness {
  /** decider is limiter `on`, or (without `on`) the combination if there is one, else limiter 0. */
  decider(on?: number): AsyncDecider;
  forget(on: number, key: string): Promise<number>;
  /** held counts the buckets the case's limiters hold. */
  held(): Promise<number>;
}

interface Adapter {
  name: string;
  build(clock: FakeClock, limiters: LimiterSpec[], combined?: number[]): Harness;
  reset(): Promise<void>;
}

const byInput = (input: string) => input;

/** wrap turns a synchronous decider into an AsyncDecider: a throw becomes a rejection. */
function wrap(
  d: Omit<Limiter<string>, "forget" | "gc" | "clear" | "size" | "close">,
): AsyncDecider {
  return {
    allow: async (i) => d.allow(i),
    allowN: async (i, n) => d.allowN(i, n),
    allowWithDetails: async (i) => d.allowWithDetails(i),
    allowNWithDetails: async (i, n) => d.allowNWithDetails(i, n),
    allowWithDebug: async (i) => d.allowWithDebug(i),
    allowNWithDebug: async (i, n) => d.allowNWithDebug(i, n),
    peek: async (i) => d.peek(i),
    peekN: async (i, n) => d.peekN(i, n),
    peekWithDetails: async (i) => d.peekWithDetails(i),
    peekNWithDetails: async (i, n) => d.peekNWithDetails(i, n),
    peekWithDebug: async (i) => d.peekWithDebug(i),
    peekNWithDebug: async (i, n) => d.peekNWithDebug(i, n),
    waitN: (i, n, options) => d.waitN(i, n, options),
  };
}

const memory: Adapter = {
  name: "in-memory",
  build(clock, specs, combined) {
    const limiters = specs.map((s) => new Limiter(s.key ?? byInput, s.limits, { clock }));
    const picked = combined?.map((i) => limiters[i] as Limiter<string>);
    const main = picked ? combine(...picked) : limiters[0];
    return {
      decider: (on) => wrap((on === undefined ? main : limiters[on]) as Limiter<string>),
      forget: async (on, key) => (limiters[on] as Limiter<string>).forget(key),
      held: async () => limiters.reduce((sum, l) => sum + l.size, 0),
    };
  },
  reset: async () => {},
};

let server: RedisServer;
let redis: Redis;
let built = 0;

const onRedis: Adapter = {
  name: "Redis",
  build(clock, specs, combined) {
    // Each limiter owns its buckets, as an in-memory one does: its own prefix.
    const run = built++;
    const limiters = specs.map(
      (s, i) =>
        new RedisLimiter(redis, s.key ?? byInput, s.limits, { prefix: `t${run}.${i}`, clock }),
    );
    const picked = combined?.map((i) => limiters[i] as RedisLimiter<string>);
    const main = picked ? combineRedis(...(picked as [RedisLimiter<string>])) : limiters[0];
    return {
      decider: (on) => (on === undefined ? main : limiters[on]) as AsyncDecider,
      forget: (on, key) => (limiters[on] as RedisLimiter<string>).forget(key),
      held: async () => {
        let count = 0;
        for (const l of limiters) count += (await redis.keys(`${l.prefix}:*`)).length;
        return count;
      },
    };
  },
  reset: async () => {
    await redis.flushall();
  },
};

beforeAll(async () => {
  server = await startRedisServer();
  redis = server.client();
});

afterAll(async () => {
  await server?.close();
});

type Bucket = DebugDetails<unknown>["buckets"][number];

/**
 * normalBucket is a bucket report without its retry-after (checked apart), its limit by id, and
 * without its time to full, which must agree with its remaining tokens.
 */
function normalBucket(b: Bucket) {
  const { limit, retryAfterMs, fullInMs, ...rest } = b;
  expect(fullInMs).toBeGreaterThanOrEqual(0);
  expect(levelAfter(limit, fullInMs, 0).remaining).toBe(Math.max(0, b.tokensRemaining));
  return { ...rest, limit: limit.id };
}

/** normalQuota is a quota report with its quota by id. */
function normalQuota(q: QuotaDetails) {
  return { ...q, quota: q.quota.id };
}

/** checkRetry compares a retry-after: exactly when the exact value is whole, else by expectRetry. */
function checkRetry(actual: number, exact: number, at: number, label: string): void {
  if (Number.isInteger(exact) || !Number.isFinite(exact)) {
    expect(actual, label).toBe(exact);
  } else {
    expectRetry(actual, exact, at);
  }
}

async function runCase(adapter: Adapter, c: SharedCase): Promise<void> {
  const clock = new FakeClock(c.start ?? 0);
  const harness = adapter.build(clock, c.limiters, c.combine);
  for (const [index, step] of c.steps.entries()) {
    const label = `step ${index}`;
    if ("held" in step) {
      expect(await harness.held(), label).toBe(step.held);
      continue;
    }
    if ("forget" in step) {
      expect(await harness.forget(step.on ?? 0, step.forget), label).toBe(step.deleted);
      continue;
    }
    clock.set(step.at);
    const d = harness.decider(step.on);
    const n = step.n ?? 1;
    if ("rejects" in step) {
      await expect(call(d, step), label).rejects.toThrow(step.rejects);
      continue;
    }
    const result = await call(d, step);
    if (typeof result === "boolean") {
      expect(result, label).toBe(step.allowed);
      continue;
    }
    if (!("remaining" in step)) throw new Error(`${label}: a details step needs remaining`);
    const take = step.call.startsWith("allow") || step.call === "waitN";
    const consumed = step.allowed && take ? n : 0;
    const { retryAfterMs, buckets, quotas, ...details } = result as Details & {
      buckets?: Bucket[];
      quotas?: QuotaDetails[];
    };
    const expectedBuckets =
      "buckets" in step
        ? step.buckets.map((b: BucketOutcome) => ({
            allowed: b.allowed,
            executionTime: step.at,
            tokensRequested: n,
            tokensConsumed: consumed,
            tokensRemaining: b.remaining,
            limit: b.limit.id,
            key: b.key,
          }))
        : undefined;
    const expectedQuotas =
      "quotas" in step
        ? step.quotas?.map((q: QuotaOutcome) => ({
            allowed: q.allowed,
            executionTime: step.at,
            tokensRequested: n,
            tokensConsumed: consumed,
            tokensRemaining: q.remaining,
            retryAfterMs: q.retry ?? 0,
            kind: "quota",
            quota: q.quota.id,
            key: q.key,
            used: q.used,
            remaining: q.remaining,
            periodStartMs: q.start,
            periodEndMs: q.end,
            resetInMs: q.end - step.at,
          }))
        : undefined;
    expect(
      { ...details, buckets: buckets?.map(normalBucket), quotas: quotas?.map(normalQuota) },
      label,
    ).toEqual({
      allowed: step.allowed,
      executionTime: step.at,
      tokensRequested: n,
      tokensConsumed: consumed,
      tokensRemaining: step.remaining,
      buckets: expectedBuckets,
      quotas: expectedQuotas,
    });
    checkRetry(retryAfterMs, step.retry ?? 0, step.at, label);
    if ("buckets" in step) {
      step.buckets.forEach((b, i) => {
        checkRetry(
          buckets?.[i]?.retryAfterMs ?? Number.NaN,
          b.retry ?? 0,
          step.at,
          `${label} bucket ${i}`,
        );
      });
    }
  }
}

/** call invokes a step's method. */
function call(
  d: AsyncDecider,
  step: Exclude<Step, { held: number } | { forget: string }>,
): Promise<boolean | Details | DebugDetails<unknown>> {
  const n = step.n ?? 1;
  switch (step.call) {
    case "allow":
      return d.allow(step.input);
    case "peek":
      return d.peek(step.input);
    case "allowWithDetails":
      return d.allowWithDetails(step.input);
    case "peekWithDetails":
      return d.peekWithDetails(step.input);
    case "allowWithDebug":
      return d.allowWithDebug(step.input);
    case "peekWithDebug":
      return d.peekWithDebug(step.input);
    default:
      return d[step.call](step.input, n);
  }
}

describe.each([memory, onRedis])("shared cases on the $name path", (adapter) => {
  beforeEach(() => adapter.reset());

  it.each([...sharedCases, ...sharedQuotaCases])("$name", (c) => runCase(adapter, c));
});

describe("both paths agree", () => {
  beforeEach(() => onRedis.reset());

  it("on random scripts of (advance, n) steps: the same Details and bucket reports", async () => {
    await fc.assert(
      fc.asyncProperty(
        propertyLimitsArb,
        propertyStartArb,
        propertyStepsArb,
        async (limits, start, steps) => {
          const clock = new FakeClock(start);
          const specs = [{ limits }];
          const a = memory.build(clock, specs).decider();
          const b = onRedis.build(clock, specs).decider();
          for (const [index, step] of steps.entries()) {
            clock.set(clock.now() + step.advanceMs);
            const method = step.take ? "allowNWithDebug" : "peekNWithDebug";
            const x = await a[method](step.key, step.n);
            const y = await b[method](step.key, step.n);
            const label = `step ${index}`;
            expect(withoutRetries(y), label).toEqual(withoutRetries(x));
            sameRetry(y.retryAfterMs, x.retryAfterMs, clock.now(), label);
            x.buckets.forEach((bucket, i) => {
              sameRetry(
                y.buckets[i]?.retryAfterMs ?? Number.NaN,
                bucket.retryAfterMs,
                clock.now(),
                label,
              );
              expect(bucket.tokensRemaining).toBeGreaterThanOrEqual(0);
              expect(bucket.tokensRemaining).toBeLessThanOrEqual(bucket.limit.count);
            });
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("both paths agree with quotas", () => {
  beforeEach(() => onRedis.reset());

  const quotaArb = fc
    .record({
      count: fc.integer({ min: 1, max: 10 }),
      period: fc.constantFrom("day" as const, "week" as const, "month" as const),
      timeZone: fc.constantFrom("UTC", "Europe/Berlin", "America/New_York"),
      anchorDay: fc.integer({ min: 1, max: 31 }),
    })
    .map(({ count, period, ...options }) => quota(count, period, options));
  const stepsArb = fc.array(
    fc.record({
      advanceMs: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 0, max: 1_000 }) },
        { weight: 2, arbitrary: fc.integer({ min: 0, max: 3 * 86_400_000 }) },
      ),
      key: fc.constantFrom("a", "b"),
      n: fc.integer({ min: 0, max: 12 }),
      take: fc.boolean(),
    }),
    { minLength: 1, maxLength: 30 },
  );

  it("on random scripts over buckets and quotas across period boundaries: the same reports", async () => {
    await fc.assert(
      fc.asyncProperty(
        propertyLimitsArb,
        fc.array(quotaArb, { minLength: 1, maxLength: 2 }),
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2028, 11, 31) }),
        stepsArb,
        async (limits, quotas, start, steps) => {
          const clock = new FakeClock(start);
          const specs = [{ limits: [...limits, ...quotas] }];
          const a = memory.build(clock, specs).decider();
          const b = onRedis.build(clock, specs).decider();
          for (const [index, step] of steps.entries()) {
            clock.set(clock.now() + step.advanceMs);
            const method = step.take ? "allowNWithDebug" : "peekNWithDebug";
            const x = await a[method](step.key, step.n);
            const y = await b[method](step.key, step.n);
            const label = `step ${index}`;
            expect({ ...withoutRetries(y), quotas: y.quotas?.map(normalQuota) }, label).toEqual({
              ...withoutRetries(x),
              quotas: x.quotas?.map(normalQuota),
            });
            sameRetry(y.retryAfterMs, x.retryAfterMs, clock.now(), label);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

/** withoutRetries drops retry-afters (compared by sameRetry) and names limits by id. */
function withoutRetries(d: DebugDetails<unknown>) {
  const { retryAfterMs, ...rest } = d;
  return { ...rest, buckets: d.buckets.map(normalBucket) };
}

/**
 * sameRetry compares the two paths' retry-afters: equal when whole (or 0, or Infinity); a
 * fractional one may differ in its last bits, as each path rounds up in its own arithmetic.
 */
function sameRetry(actual: number, expected: number, nowMs: number, label: string): void {
  if (Number.isInteger(expected) || !Number.isFinite(expected)) {
    expect(actual, label).toBe(expected);
  } else {
    expect(Math.abs(actual - expected), label).toBeLessThanOrEqual(
      (Math.abs(nowMs) + expected) * 2 ** -50,
    );
  }
}
