import { describe, expect, it } from "vitest";
import { combine, Limiter, limit } from "@/lib/limiter";
import { FakeClock } from "../support/fake-clock";

interface Request {
  user: string;
  path: string;
}

/** setup builds a per-user limiter (3 per minute) and a per-path one (2 per second). */
function setup() {
  const clock = new FakeClock(0);
  const perUser = limit(3, "1m");
  const perPath = limit(2, "1s");
  const byUser = new Limiter((r: Request) => r.user, perUser, { clock });
  const byPath = new Limiter((r: Request) => r.path, perPath, { clock });
  return { clock, perUser, perPath, byUser, byPath, combined: combine(byUser, byPath) };
}

describe("combine", () => {
  it("decides across limiters with different keys, all or nothing", () => {
    const { clock, byUser, byPath, combined } = setup();
    const aliceA = { user: "alice", path: "/a" };
    const bobA = { user: "bob", path: "/a" };
    const aliceB = { user: "alice", path: "/b" };

    expect(combined.allow(aliceA)).toBe(true);
    expect(combined.allow(aliceA)).toBe(true);
    // /a is spent: denied, and alice's user bucket keeps its last token.
    expect(combined.allowWithDetails(aliceA)).toMatchObject({
      allowed: false,
      tokensRemaining: 0,
      retryAfterMs: 500,
    });
    expect(byUser.peekWithDetails(aliceA).tokensRemaining).toBe(1);
    // Bob is denied on /a too, and no bucket is created for him.
    expect(combined.allow(bobA)).toBe(false);
    expect(combined.size).toBe(2);
    expect(byUser.size).toBe(1);
    // Alice on /b spends her last user token; /b keeps 1.
    expect(combined.allowWithDetails(aliceB)).toMatchObject({ allowed: true, tokensRemaining: 0 });
    expect(byPath.peekWithDetails(aliceB).tokensRemaining).toBe(1);
    // Now alice's user limit denies on /b: /b's token stays.
    expect(combined.allowWithDetails(aliceB)).toMatchObject({
      allowed: false,
      tokensRemaining: 0,
      retryAfterMs: 20_000,
    });
    expect(byPath.peekWithDetails(aliceB).tokensRemaining).toBe(1);
    expect(combined.allow({ user: "bob", path: "/b" })).toBe(true);
    clock.advance(500);
    expect(combined.allow(bobA)).toBe(true);
    expect(combined.size).toBe(4);
  });

  it("reports buckets in order: limiter, then limit, each with its own key", () => {
    const { perUser, perPath, combined } = setup();
    const debug = combined.allowWithDebug({ user: "alice", path: "/a" });
    expect(debug.buckets.map((b) => [b.limit, b.key, b.tokensRemaining])).toEqual([
      [perUser, "alice", 2],
      [perPath, "/a", 1],
    ]);
    const reversed = setup();
    const order = combine(reversed.byPath, reversed.byUser).peekWithDebug({
      user: "u",
      path: "/p",
    });
    expect(order.buckets.map((b) => b.key)).toEqual(["/p", "u"]);
  });

  it("counts the same limiter listed twice once", () => {
    const { byUser } = setup();
    const twice = combine(byUser, byUser);
    const alice = { user: "alice", path: "/a" };
    expect(twice.allowWithDebug(alice).buckets).toHaveLength(1);
    expect(byUser.peekWithDetails(alice).tokensRemaining).toBe(2);
    expect(twice.allow(alice)).toBe(true);
    expect(twice.allow(alice)).toBe(true);
    expect(twice.allow(alice)).toBe(false);
    expect(twice.size).toBe(1);
  });

  it("allows everything with no limiters", () => {
    const none = combine<string>();
    for (let i = 0; i < 1_000; i++) expect(none.allow("k")).toBe(true);
    expect(none.allowNWithDebug("k", 1_000_000)).toEqual({
      allowed: true,
      executionTime: expect.any(Number),
      tokensRequested: 1_000_000,
      tokensConsumed: 1_000_000,
      tokensRemaining: Number.POSITIVE_INFINITY,
      retryAfterMs: 0,
      buckets: [],
    });
    expect(none.peekWithDetails("k")).toMatchObject({ allowed: true, tokensConsumed: 0 });
    expect(none.size).toBe(0);
    expect(none.gc()).toBe(0);
  });

  it("reads the execution time once from the first limiter's clock", () => {
    const { clock, combined } = setup();
    clock.set(7_000);
    const debug = combined.allowWithDebug({ user: "alice", path: "/a" });
    expect(debug.executionTime).toBe(7_000);
    expect(debug.buckets.map((b) => b.executionTime)).toEqual([7_000, 7_000]);
  });

  it("sums size and gc over its limiters and clears them all", () => {
    const { clock, byUser, byPath, combined } = setup();
    combined.allow({ user: "alice", path: "/a" });
    combined.allow({ user: "bob", path: "/b" });
    expect([combined.size, byUser.size, byPath.size]).toEqual([4, 2, 2]);
    clock.advance(500);
    // Path buckets (a token is 500 ms) are full again; user buckets (20 s a token) are not.
    expect(combined.gc()).toBe(2);
    expect([combined.size, byUser.size, byPath.size]).toEqual([2, 2, 0]);
    combined.clear();
    expect([combined.size, byUser.size, byPath.size]).toEqual([0, 0, 0]);
    expect(byUser.peekWithDetails({ user: "alice", path: "/a" }).tokensRemaining).toBe(3);
  });

  it("shares the method set with Limiter: peek, wait and n-variants", async () => {
    const { combined } = setup();
    const alice = { user: "alice", path: "/a" };
    expect(combined.peekN(alice, 2)).toBe(true);
    expect(combined.peekN(alice, 3)).toBe(false);
    expect(combined.allowN(alice, 2)).toBe(true);
    expect(combined.peek(alice)).toBe(false);
    expect(combined.peekNWithDetails(alice, 1).retryAfterMs).toBe(500);
    await expect(combined.waitN(alice, 3)).rejects.toBeInstanceOf(RangeError);
  });
});
