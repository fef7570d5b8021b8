import { describe, expect, it } from "vitest";
import { type Limit, Limiter, type LimitFunc, limit } from "@/lib/limiter";
import { FakeClock } from "../support/fake-clock";

interface Request {
  ip: string;
  method: "GET" | "POST";
}

const byIp = (req: Request) => req.ip;

describe("Limiter: limit funcs", () => {
  it("picks the read or the write limit by method, each its own bucket", () => {
    const clock = new FakeClock(0);
    const readLimit = limit(5, "1s");
    const writeLimit = limit(2, "1s");
    const byMethod = (req: Request) => (req.method === "GET" ? readLimit : writeLimit);
    const limiter = new Limiter(byIp, byMethod, { clock });
    const get = { ip: "10.0.0.1", method: "GET" } as const;
    const post = { ip: "10.0.0.1", method: "POST" } as const;

    expect(limiter.allowN(post, 2)).toBe(true);
    expect(limiter.allowWithDetails(post)).toMatchObject({ allowed: false, retryAfterMs: 500 });
    // Writes are spent; reads from the same IP still have all 5.
    expect(limiter.peekWithDetails(get).tokensRemaining).toBe(5);
    for (let i = 4; i >= 0; i--) {
      expect(limiter.allowWithDetails(get)).toMatchObject({ allowed: true, tokensRemaining: i });
    }
    expect(limiter.allow(get)).toBe(false);
    expect(limiter.size).toBe(2);
    expect(limiter.peekWithDebug(get).buckets[0]?.limit).toBe(readLimit);
    expect(limiter.peekWithDebug(post).buckets[0]?.limit).toBe(writeLimit);
    // Another IP has its own buckets.
    expect(limiter.allow({ ip: "10.0.0.2", method: "POST" })).toBe(true);
    expect(limiter.size).toBe(3);
  });

  it("lets a customer's plan decide the limit, and a new plan gets its own bucket", () => {
    const clock = new FakeClock(0);
    const plans = { free: limit(2, "1m"), pro: limit(5, "1m") };
    const planOf = new Map<string, keyof typeof plans>([
      ["alice", "free"],
      ["bob", "pro"],
    ]);
    const byPlan = (customer: string) => plans[planOf.get(customer) ?? "free"];
    const limiter = new Limiter((customer: string) => customer, byPlan, { clock });

    expect(limiter.allowN("alice", 2)).toBe(true);
    expect(limiter.allow("alice")).toBe(false);
    expect(limiter.allowN("bob", 5)).toBe(true);
    expect(limiter.allow("bob")).toBe(false);
    expect(limiter.size).toBe(2);

    // Alice upgrades: the pro limit is a different limit, so a different (full) bucket.
    planOf.set("alice", "pro");
    expect(limiter.peekWithDetails("alice").tokensRemaining).toBe(5);
    expect(limiter.allowN("alice", 5)).toBe(true);
    expect(limiter.allow("alice")).toBe(false);
    expect(limiter.size).toBe(3);
    // Back to free: her old free bucket is still spent (30 s is one token's worth).
    planOf.set("alice", "free");
    expect(limiter.allow("alice")).toBe(false);
    clock.advance(30_000);
    expect(limiter.allowWithDetails("alice")).toMatchObject({ allowed: true, tokensRemaining: 0 });
  });

  it("shares one bucket among equal limits built anew on every call", () => {
    const clock = new FakeClock(0);
    let built = 0;
    const fresh = () => {
      built++;
      return limit(3, "1s");
    };
    const limiter = new Limiter((key: string) => key, fresh, { clock });
    for (const expected of [true, true, true, false]) {
      expect(limiter.allow("k")).toBe(expected);
      expect(limiter.size).toBe(1);
    }
    expect(built).toBe(4);
    const [bucket] = limiter.peekWithDebug("k").buckets;
    expect(bucket?.limit.id).toBe(limit(3, 1_000).id);
    expect(bucket?.tokensRemaining).toBe(0);
  });

  it("counts a func's limit once when it equals a static limit or repeats in an array", () => {
    const clock = new FakeClock(0);
    const same = () => [limit(2, "1s"), limit(2, 1_000)];
    const limiter = new Limiter((key: string) => key, [limit(2, "1s"), same], { clock });
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allow("k")).toBe(false);
    expect(limiter.size).toBe(1);
    expect(limiter.peekWithDebug("k").buckets).toHaveLength(1);
  });

  it("resolves static limits first, then each limit func in order", () => {
    const clock = new FakeClock(0);
    const staticLimit = limit(10, "1s");
    const first: LimitFunc<string> = () => [limit(20, "1s"), limit(30, "1s")];
    const second: LimitFunc<string> = () => limit(40, "1s");
    const limiter = new Limiter((key: string) => key, [first, staticLimit, second], { clock });
    const counts = limiter.allowWithDebug("k").buckets.map((b) => b.limit.count);
    expect(counts).toEqual([10, 20, 30, 40]);
    expect(limiter.size).toBe(4);
  });

  const nothing: Array<[string, LimitFunc<string>]> = [
    ["null", () => null],
    ["undefined", () => undefined],
    ["an empty array", () => []],
  ];
  it.each(nothing)("treats a func returning %s as no limit from it", (_, func) => {
    const clock = new FakeClock(0);
    const limiter = new Limiter((key: string) => key, [limit(1, "1s"), func], { clock });
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allowWithDetails("k")).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
    expect(limiter.size).toBe(1);
  });

  it("applies a func's limit only to the inputs it returns one for", () => {
    const clock = new FakeClock(0);
    const strictForAnon = (user: string): Limit | null => (user === "anon" ? limit(1, "1s") : null);
    const limiter = new Limiter((user: string) => user, strictForAnon, { clock });
    expect(limiter.allow("anon")).toBe(true);
    expect(limiter.allow("anon")).toBe(false);
    for (let i = 0; i < 100; i++) expect(limiter.allow("known")).toBe(true);
    expect(limiter.size).toBe(1);
  });

  it("throws a TypeError when a func returns something that is not a Limit", () => {
    const clock = new FakeClock(0);
    const bad = (() => ({ count: 1, periodMs: 1_000 })) as unknown as LimitFunc<string>;
    const limiter = new Limiter((key: string) => key, bad, { clock });
    expect(() => limiter.allow("k")).toThrow(TypeError);
    expect(limiter.size).toBe(0);
  });
});
