import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { bucketHistory, inspect } from "@/lib/admin/inspect";
import { nearLimitCustomers } from "@/lib/admin/near-limit";
import { decide } from "@/lib/policy/decide";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import type { Runtime } from "@/lib/runtime";
import { RedisUsageClaimer } from "@/lib/usage/redis-claimer";
import { writeClaims } from "@/lib/usage/sqlite-writer";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/usage/time";
import { type RedisServer, startRedisServer } from "../support/redis-server";
import {
  createTestRuntime,
  openTestRuntime,
  START_MS,
  type TestCustomer,
  type TestRuntime,
} from "../support/runtime";
import { report, totalsOf } from "./usage-support";

let server: RedisServer;
let prefixes = 0;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.close();
});

const silent = { info() {}, warn() {}, error() {} };

/** send makes `n` decisions of one operation for a customer on a runtime, `cost` tokens each. */
async function send(
  runtime: Runtime,
  id: number,
  operation: "read" | "write",
  n: number,
  cost = 1,
): Promise<void> {
  const customer = runtime.policy.snapshot.byId.get(id) as CustomerPolicy;
  for (let i = 0; i < n; i++) await decide(runtime, customer, operation, cost);
}

describe("usage rollups across instances sharing Redis", () => {
  let t: TestRuntime;
  let other: Runtime;
  let who: TestCustomer;
  let prefix: string;

  beforeEach(async () => {
    prefix = `u${++prefixes}`;
    const redis = { url: server.url, prefix, timeoutMs: 500 };
    t = createTestRuntime({ redis });
    t.addPlan("tight", [
      { operation: "read", count: 3, periodMs: HOUR_MS },
      { operation: "write", count: 100, periodMs: HOUR_MS },
    ]);
    who = t.addCustomer("tight", "Shared Ltd");
    other = openTestRuntime(t.databasePath, t.clock, { redis });
    await Promise.all([t.runtime.ready(), other.ready()]);
    t.clock.advance(10 * MINUTE_MS);
  });
  afterEach(() => {
    other.close();
    t.cleanup();
  });

  const day = () => totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS));

  it("counts two instances' traffic once, summed: claimed once a minute has closed", async () => {
    await send(t.runtime, who.id, "read", 3); // 3 allowed here,
    await send(other, who.id, "read", 2); // and the shared bucket refuses these two there.
    await send(other, who.id, "write", 4, 2);
    await t.runtime.usage.flush();
    await other.usage.flush();
    // Nothing reaches SQLite but through a claim, and an open minute is not claimed.
    expect(await t.runtime.claims?.claim()).toBe(0);
    expect(day().allowed).toBe(0);
    t.clock.advance(MINUTE_MS + 10_000 + 1);
    expect(await other.claims?.claim()).toBe(1);
    expect(await t.runtime.claims?.claim()).toBe(0);
    const want = {
      allowed: 7,
      denied: 2,
      unavailable: 0,
      tooLarge: 0,
      tokensRequested: 13,
      tokensTaken: 11,
    };
    expect(day()).toEqual(want);
    // A count pushed late for that minute is claimed later, and added once.
    t.runtime.usage.record(
      who.id,
      t.planId("tight"),
      "read",
      "denied",
      1,
      0,
      START_MS + 10 * MINUTE_MS,
    );
    await t.runtime.usage.flush();
    expect(await t.runtime.claims?.claim()).toBe(1);
    expect(day()).toEqual({ ...want, denied: 3, tokensRequested: 14 });
    const left = await server.client().keys(`${prefix}:{usage}:*`);
    expect(left.filter((k) => !k.includes(":batch:"))).toEqual([]);
  });

  it("takes over a dead claimer's claims after their lease, never writing one twice", async () => {
    await send(t.runtime, who.id, "read", 2);
    await t.runtime.usage.flush();
    t.clock.advance(MINUTE_MS + 10_000 + 1);
    const relay = new RedisUsageClaimer({
      redis: server.client(),
      prefix,
      timeoutMs: 500,
      log: silent,
    });
    const latest = t.clock.now() - MINUTE_MS - 10_000;
    // One claimer dies after claiming, before writing.
    await expect(
      relay.claim(t.clock.now(), latest, () => {
        throw new Error("died");
      }),
    ).rejects.toThrow("died");
    expect(await other.claims?.claim()).toBe(0);
    expect(day().allowed).toBe(0);
    t.clock.advance(60_000);
    expect(await other.claims?.claim()).toBe(1);
    expect(day().allowed).toBe(2);

    // Another dies after writing, before deleting its claim from Redis.
    await send(t.runtime, who.id, "write", 3);
    await t.runtime.usage.flush();
    t.clock.advance(MINUTE_MS + 10_000 + 1);
    await expect(
      relay.claim(t.clock.now(), t.clock.now() - MINUTE_MS - 10_000, (claims) => {
        writeClaims(t.runtime.db, claims, t.clock.now());
        throw new Error("died");
      }),
    ).rejects.toThrow("died");
    expect(day().allowed).toBe(5);
    t.clock.advance(60_000);
    expect(await t.runtime.claims?.claim()).toBe(1);
    expect(day().allowed).toBe(5);
    expect(await server.client().zcard(`${prefix}:{usage}:claims`)).toBe(0);
  });

  it("keeps counts Redis may have missed for Redis, and writes the rest itself, each once", async () => {
    await send(t.runtime, who.id, "read", 1);
    await server.stop();
    try {
      await send(t.runtime, who.id, "read", 2); // reads fail open on the stand-in
      await send(t.runtime, who.id, "write", 2); // writes fail closed
      // Whether this push went out (and then no answer came) or Redis was seen gone before it,
      // what it carried counts once: only Redis may count what was sent to it.
      await t.runtime.usage.flush();
      await send(t.runtime, who.id, "read", 1);
      // The next one tries what was sent again, first; the counts never sent go to SQLite.
      expect(await t.runtime.usage.flush()).toBeGreaterThan(0);
      const outage = day();
      expect(outage.allowed).toBeGreaterThanOrEqual(1);
      expect(outage.allowed).toBeLessThanOrEqual(4);
    } finally {
      await server.start();
    }
    await t.runtime.ready();
    // Both instances' subscriptions come back before the test ends: closing a client while it
    // resubscribes leaves a rejection of ioredis's own unhandled.
    const probe = server.client();
    await vi.waitFor(
      async () => expect((await probe.pubsub("NUMSUB", `${prefix}:policy`))[1]).toBe(2),
      { timeout: 5_000, interval: 20 },
    );
    // Redis is back: counts that waited for it go there once, and reach SQLite by a claim.
    await t.runtime.usage.flush();
    t.clock.advance(2 * MINUTE_MS);
    await t.runtime.claims?.claim();
    expect(day()).toEqual({
      allowed: 4,
      denied: 0,
      unavailable: 2,
      tooLarge: 0,
      tokensRequested: 6,
      tokensTaken: 4,
    });
  });

  it("serves the live view for the whole fleet: both instances' seconds, summed", async () => {
    await send(t.runtime, who.id, "read", 3);
    await send(other, who.id, "read", 1);
    t.clock.advance(1_000);
    await t.runtime.livePush?.push();
    await other.livePush?.push();
    const now = t.clock.now();
    for (const runtime of [t.runtime, other]) {
      const view = await runtime.live.points(now, 5, { customerId: who.id });
      expect(view.scope).toBe("fleet");
      expect(view.points.map((p) => [p.allowed, p.denied])).toEqual([
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
        [3, 1],
      ]);
      const fleet = await runtime.live.points(now, 1);
      expect(fleet.points).toEqual([{ t: now - 1_000, allowed: 3, denied: 1 }]);
      const totals = await runtime.live.totals(now, 60);
      expect(totals.totals.get(who.id)).toEqual({ allowed: 3, denied: 1 });
    }
    // A second push sends nothing twice.
    await t.runtime.livePush?.push();
    expect((await t.runtime.live.totals(now, 60)).totals.get(who.id)).toEqual({
      allowed: 3,
      denied: 1,
    });
  });

  it("keeps the fleet's tokens taken per second, and when the first and last of them came", async () => {
    const second = t.clock.now();
    t.clock.set(second + 100);
    await send(t.runtime, who.id, "write", 1, 2);
    t.clock.set(second + 300);
    await send(other, who.id, "write", 1, 1);
    t.clock.set(second + 700);
    await send(other, who.id, "write", 1, 3);
    await send(t.runtime, who.id, "read", 4); // 3 allowed, 1 refused: the read bucket holds 3.
    t.clock.set(second + 1_000);
    await t.runtime.livePush?.push();
    await other.livePush?.push();
    for (const runtime of [t.runtime, other]) {
      const view = await runtime.live.takenSeconds(t.clock.now(), 5, [who.id]);
      expect(view.scope).toBe("fleet");
      expect(view.seconds.get(`${who.id}|write`)).toEqual([
        { t: second, allowed: 3, denied: 0, taken: 6, firstMs: 100, lastMs: 700 },
      ]);
      expect(view.seconds.get(`${who.id}|read`)).toEqual([
        { t: second, allowed: 3, denied: 1, taken: 3, firstMs: 700, lastMs: 700 },
      ]);
    }
  });
});

describe("the bucket history across instances sharing Redis", () => {
  let t: TestRuntime;
  let other: Runtime;
  let who: TestCustomer;

  beforeEach(async () => {
    const redis = { url: server.url, prefix: `h${++prefixes}`, timeoutMs: 500 };
    // Both decide at the test clock's time, so the replay and the buckets share one clock.
    t = createTestRuntime({ redis, redisOnTestClock: true });
    t.addPlan("tight", [{ operation: "read", count: 3, periodMs: HOUR_MS }]);
    who = t.addCustomer("tight", "Shared Ltd");
    other = openTestRuntime(t.databasePath, t.clock, {
      redis: { ...redis, decisionClock: t.clock },
    });
    await Promise.all([t.runtime.ready(), other.ready()]);
    t.clock.advance(10 * MINUTE_MS);
  });
  afterEach(() => {
    other.close();
    t.cleanup();
  });

  it("replays a bucket's history from the fleet's decisions, on any instance", async () => {
    const burst = t.clock.now() + 250;
    t.clock.set(burst);
    await send(other, who.id, "read", 5); // 3 allowed, 2 refused: on the other instance only.
    t.clock.advance(1_000);
    await other.livePush?.push();
    const customer = t.runtime.policy.snapshot.byId.get(who.id) as CustomerPolicy;
    const now = t.clock.now();
    const operations = await inspect(t.runtime, customer);
    expect(operations.read?.buckets[0]?.remaining).toBe(0);
    const history = await bucketHistory(t.runtime.live, who.id, operations, now, 60);
    expect(history.scope).toBe("fleet");
    expect(history.operations.read?.[0]?.map((s) => [s.t, s.remaining])).toEqual([
      [now - 60_000, 3],
      [burst, 0],
      [now, 0],
    ]);
  });

  it("measures a per-second limit from the fleet's seconds for customers near their limit", async () => {
    t.addPlan("per-second", [{ operation: "read", count: 4, periodMs: 1_000 }]);
    const fast = t.addCustomer("per-second", "Fast Ltd");
    other.policy.refresh();
    await send(other, fast.id, "read", 6); // 4 allowed, on the other instance only.
    t.clock.advance(1_000);
    await other.livePush?.push();
    const near = await nearLimitCustomers(t.runtime, t.runtime.live, {
      from: t.clock.now() - HOUR_MS,
    });
    if (!near.ok) throw new Error(near.title);
    expect(near.value.perSecondScope).toBe("fleet");
    expect(near.value.customers).toEqual([
      expect.objectContaining({
        kind: "peak",
        customerId: fast.id,
        limit: { count: 4, periodMs: 1_000 },
        lowestTokens: 0,
        share: 1,
      }),
    ]);
  });
});
