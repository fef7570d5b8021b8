import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  combine,
  type DebugDetails,
  type Details,
  type Limit,
  Limiter,
  limit,
} from "@/lib/limiter";

const roundRetry = (ms: number) => (Number.isFinite(ms) ? Math.round(ms * 1e6) / 1e6 : ms);

import { expectRetry } from "../support/expect-retry";
import { FakeClock } from "../support/fake-clock";
import { type BucketRef, ReferenceLimiter } from "../support/reference-limiter";

const byKey = (key: string) => key;
const keyArb = fc.constantFrom("a", "b", "c");
const smallLimitArb = fc
  .record({ count: fc.integer({ min: 1, max: 20 }), periodMs: fc.integer({ min: 1, max: 5_000 }) })
  .map(({ count, periodMs }) => limit(count, periodMs));
const startArb = fc.integer({ min: -1e12, max: 1e12 });

const opArb = fc.oneof(
  fc.record({ kind: fc.constant("allow" as const), key: keyArb }),
  fc.record({
    kind: fc.constant("allowN" as const),
    key: keyArb,
    n: fc.integer({ min: 0, max: 25 }),
  }),
  fc.record({
    kind: fc.constant("peekN" as const),
    key: keyArb,
    n: fc.integer({ min: 0, max: 25 }),
  }),
  fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 3_000 }) }),
  fc.record({ kind: fc.constant("back" as const), ms: fc.integer({ min: 0, max: 3_000 }) }),
  fc.record({ kind: fc.constant("gc" as const) }),
);

describe("properties", () => {
  it("match the reference arithmetic, tokens always within 0..count, over random scripts", () => {
    fc.assert(
      fc.property(
        fc.array(smallLimitArb, { minLength: 1, maxLength: 3 }),
        fc.array(smallLimitArb, { maxLength: 2 }),
        startArb,
        fc.array(opArb, { maxLength: 40 }),
        (statics, dynamics, startMs, ops) => {
          const clock = new FakeClock(startMs);
          const funcs = dynamics.length > 0 ? [() => dynamics] : [];
          const limiter = new Limiter(byKey, [...statics, ...funcs], { clock });
          const reference = new ReferenceLimiter();
          const refs = (key: string): BucketRef[] =>
            [...statics, ...dynamics].map((l) => ({ scope: 0, limit: l, key }));
          const compare = (
            actual: Details & { buckets?: unknown },
            key: string,
            n: number,
            take: boolean,
          ) => {
            const expected = reference.decide(refs(key), n, clock.now(), take);
            expect(actual.allowed).toBe(expected.allowed);
            expect(actual.tokensRemaining).toBe(expected.tokensRemaining);
            expect(actual.tokensConsumed).toBe(expected.allowed && take ? n : 0);
            expectRetry(actual.retryAfterMs, expected.retryAfterMs, clock.now());
          };
          for (const op of ops) {
            if (op.kind === "allow") {
              expect(limiter.allow(op.key)).toBe(
                reference.decide(refs(op.key), 1, clock.now(), true).allowed,
              );
            } else if (op.kind === "allowN") {
              compare(limiter.allowNWithDebug(op.key, op.n), op.key, op.n, true);
            } else if (op.kind === "peekN") {
              compare(limiter.peekNWithDetails(op.key, op.n), op.key, op.n, false);
            } else if (op.kind === "advance") {
              clock.advance(op.ms);
            } else if (op.kind === "back") {
              clock.set(clock.now() - op.ms);
            } else {
              expect(limiter.gc()).toBe(reference.gc(clock.now()));
            }
            for (const key of ["a", "b", "c"]) {
              const expected = reference.decide(refs(key), 0, clock.now(), false).buckets;
              const buckets = limiter.peekWithDebug(key).buckets;
              expect(buckets.map((b) => b.tokensRemaining)).toEqual(
                expected.map((b) => b.tokensRemaining),
              );
              for (const b of buckets) {
                expect(Number.isInteger(b.tokensRemaining)).toBe(true);
                expect(b.tokensRemaining).toBeGreaterThanOrEqual(0);
                expect(b.tokensRemaining).toBeLessThanOrEqual(b.limit.count);
              }
            }
            expect(limiter.size).toBe(reference.size);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a denied decision changes no bucket, across limits and limiters", () => {
    interface Req {
      user: string;
      path: string;
    }
    const inputs: Req[] = [
      { user: "u1", path: "/a" },
      { user: "u1", path: "/b" },
      { user: "u2", path: "/a" },
      { user: "u2", path: "/b" },
    ];
    const stepArb = fc.record({
      input: fc.constantFrom(...inputs),
      n: fc.integer({ min: 1, max: 8 }),
      ms: fc.integer({ min: -500, max: 2_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(smallLimitArb, { minLength: 1, maxLength: 2 }),
        smallLimitArb,
        smallLimitArb,
        fc.array(stepArb, { maxLength: 30 }),
        (userLimits, writeLimit, pathLimit, steps) => {
          const clock = new FakeClock(0);
          const byPath = (r: Req) => (r.path === "/b" ? writeLimit : null);
          const users = new Limiter((r: Req) => r.user, [...userLimits, byPath], { clock });
          const paths = new Limiter((r: Req) => r.path, pathLimit, { clock });
          const both = combine(users, paths);
          const snapshot = () => inputs.map((input) => both.peekWithDebug(input));
          for (const { input, n, ms } of steps) {
            clock.set(clock.now() + ms);
            const before = snapshot();
            const size = both.size;
            const decision = both.allowNWithDebug(input, n);
            if (decision.allowed) {
              // Allowed: exactly n from each of the input's buckets.
              const was = before[inputs.indexOf(input)]?.buckets.map((b) => b.tokensRemaining - n);
              const now = both.peekWithDebug(input).buckets.map((b) => b.tokensRemaining);
              expect(now).toEqual(was);
              continue;
            }
            expect(snapshot()).toEqual(before);
            expect(both.size).toBe(size);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  // gc may move a store's epoch (whole milliseconds), which can change a retry-after's last
  // floating-point bit; decisions and token counts must match exactly.
  const decision = (d: DebugDetails) => ({
    ...d,
    retryAfterMs: roundRetry(d.retryAfterMs),
    buckets: d.buckets.map((b) => ({ ...b, retryAfterMs: roundRetry(b.retryAfterMs) })),
  });

  it("gc never changes a later decision on a non-decreasing clock", () => {
    const stepArb = fc.oneof(
      fc.record({
        kind: fc.constant("allowN" as const),
        key: keyArb,
        n: fc.integer({ min: 0, max: 6 }),
      }),
      fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 3_000 }) }),
      fc.record({ kind: fc.constant("gc" as const) }),
    );
    fc.assert(
      fc.property(
        fc.array(smallLimitArb, { minLength: 1, maxLength: 2 }),
        fc.dictionary(keyArb, smallLimitArb),
        fc.array(stepArb, { maxLength: 40 }),
        (statics, perKey, steps) => {
          const clock = new FakeClock(1_000);
          const byPlan = (key: string): Limit | null => perKey[key] ?? null;
          const swept = new Limiter(byKey, [...statics, byPlan], { clock });
          const kept = new Limiter(byKey, [...statics, byPlan], { clock });
          for (const step of steps) {
            if (step.kind === "advance") {
              clock.advance(step.ms);
            } else if (step.kind === "gc") {
              const size = swept.size;
              const deleted = swept.gc();
              expect(swept.size).toBe(size - deleted);
            } else {
              expect(decision(swept.allowNWithDebug(step.key, step.n))).toEqual(
                decision(kept.allowNWithDebug(step.key, step.n)),
              );
            }
            for (const key of ["a", "b", "c"]) {
              expect(decision(swept.peekWithDebug(key))).toEqual(decision(kept.peekWithDebug(key)));
            }
            expect(swept.size).toBeLessThanOrEqual(kept.size);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
