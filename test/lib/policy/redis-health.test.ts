import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { healthOf } from "@/lib/data-plane/health";
import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import { createMetrics, type Metrics } from "@/lib/metrics";
import { createPolicyLimiter } from "@/lib/policy/policy-limiter";
import { describeFailure, RedisDecisionStore } from "@/lib/policy/redis-decision-store";
import { createEdgeRuntime, type EdgeRuntime } from "@/lib/runtime/edge";
import { FakeClock } from "../../support/fake-clock";
import { freePort } from "../../support/redis-server";

/**
 * FakeRedis stands in for the client's connection: the test says when it opens, fails, and how
 * each PING ends. Nothing here touches the network or a real timer.
 */
class FakeRedis extends EventEmitter {
  status = "connecting";
  readonly options = {};
  /** pings are the PINGs sent, in order, each with when it started and how to end it. */
  readonly pings: { at: number; answer: () => void; fail: (error: Error) => void }[] = [];

  constructor(private readonly clock: FakeClock) {
    super();
  }

  ping(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.pings.push({ at: this.clock.now(), answer: () => resolve("PONG"), fail: reject });
    });
  }

  disconnect(): void {
    this.status = "end";
  }
}

/** settle lets the store's promise callbacks run (no timer, no wall clock). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

function storeOn(clock: FakeClock) {
  const redis = new FakeRedis(clock);
  const lines: string[] = [];
  const log: Logger = {
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
  let store: RedisDecisionStore | undefined;
  const metrics = createMetrics(
    () => 0,
    () => store?.status().redis === "up",
  );
  store = new RedisDecisionStore({
    redis: redis as unknown as RedisClient,
    standIn: createPolicyLimiter(clock),
    appClock: clock,
    log,
    metrics,
    announceReset: () => {},
  });
  return { redis, store, lines, metrics };
}

/** sample reads one series of the scrape (labels included in `series`). */
async function sample(metrics: Metrics, series: string): Promise<number> {
  const text = await metrics.registry.metrics();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return Number(line?.split(" ").pop() ?? Number.NaN);
}

describe("the Redis store's health", () => {
  it("says connecting, never up, with store_up 0, until Redis first answers", async () => {
    const clock = new FakeClock(0);
    const { redis, store, metrics } = storeOn(clock);
    expect(store.status()).toEqual({ store: "redis", redis: "connecting" });
    expect(await sample(metrics, "ratekeeper_store_up")).toBe(0);
    // The connection opens: a PING asks whether Redis answers; until it does, still connecting.
    redis.status = "ready";
    redis.emit("ready");
    expect(redis.pings).toHaveLength(1);
    expect(store.status().redis).toBe("connecting");
    redis.pings[0]?.answer();
    await settle();
    expect(store.status().redis).toBe("up");
    expect(await sample(metrics, "ratekeeper_store_up")).toBe(1);
    await store.close();
  });

  it("a failed connection marks Redis down before any decision and starts the probe", async () => {
    const clock = new FakeClock(0);
    const { redis, store, lines, metrics } = storeOn(clock);
    redis.emit("error", new Error("connect ECONNREFUSED 127.0.0.1:6399"));
    expect(store.status().redis).toBe("down");
    expect(await sample(metrics, "ratekeeper_store_up")).toBe(0);
    expect(lines).toEqual([
      expect.stringMatching(/^Redis unreachable \(connect ECONNREFUSED 127\.0\.0\.1:6399\): /),
    ]);
    // The probe PINGs 250 ms later; no decision was counted.
    clock.advance(250);
    await settle();
    expect(redis.pings).toHaveLength(1);
    expect(await sample(metrics, 'ratekeeper_store_errors_total{store="redis"}')).toBe(0);
    await store.close();
  });

  it("a background call Redis left unanswered marks it down and starts the probe", async () => {
    const clock = new FakeClock(0);
    const { redis, store, lines } = storeOn(clock);
    redis.emit("ready");
    redis.pings[0]?.answer();
    await settle();
    expect(store.status().redis).toBe("up");
    store.noteFailure(new Error("Command timed out"));
    expect(store.status().redis).toBe("down");
    expect(lines.at(-1)).toMatch(/^Redis unreachable \(no answer within 200 ms\): /);
    clock.advance(250);
    await settle();
    expect(redis.pings).toHaveLength(2);
    redis.pings[1]?.answer();
    await settle();
    expect(store.status().redis).toBe("up");
    expect(lines.at(-1)).toBe(
      "Redis answers again after 0 failed decisions, 0 failed probes and 1 other failed call over 0 s: decisions use it again.",
    );
    await store.close();
  });

  it("starts each probe PING 250 ms after the previous one started, however long it took", async () => {
    const clock = new FakeClock(0);
    const { redis, store, lines, metrics } = storeOn(clock);
    store.noteFailure(new Error("Command timed out"));
    for (let i = 0; i < 4; i++) {
      clock.advance(250 - (i === 0 ? 0 : 200));
      await settle();
      expect(redis.pings).toHaveLength(i + 1);
      // Each PING waits 200 ms for its timeout, then fails.
      clock.advance(200);
      redis.pings[i]?.fail(new Error("Command timed out"));
      await settle();
    }
    expect(redis.pings.map((p) => p.at)).toEqual([250, 500, 750, 1000]);
    expect(await sample(metrics, 'ratekeeper_store_probe_failures_total{store="redis"}')).toBe(4);
    // Probes are not decisions: the decisions' counter says none failed.
    expect(await sample(metrics, 'ratekeeper_store_errors_total{store="redis"}')).toBe(0);
    clock.advance(50);
    await settle();
    redis.pings[4]?.answer();
    await settle();
    expect(lines.at(-1)).toBe(
      "Redis answers again after 0 failed decisions, 4 failed probes and 1 other failed call over 1 s: decisions use it again.",
    );
    await store.close();
  });

  it("says 'not connected' for the client's offline-queue message, and words a late decision without nesting", () => {
    expect(
      describeFailure(
        new Error("Stream isn't writeable and enableOfflineQueue options is false"),
        200,
      ),
    ).toBe("not connected");
    expect(describeFailure(new Error("Connection is closed."), 200)).toBe("not connected");
    expect(describeFailure(new Error("Command timed out"), 150)).toBe("no answer within 150 ms");
    const late = describeFailure(
      new Error("Redis did not answer the decision in time; its script refuses to run late"),
      200,
    );
    expect(late).toBe("did not answer the decision in time; its script refuses to run late");
    expect(late).not.toMatch(/[()]/);
  });
});

describe("an edge with nothing listening on the Redis port", () => {
  let edge: EdgeRuntime | undefined;
  afterEach(() => edge?.close());

  it("never says Redis is up: 503 starting with redis connecting, then down, store_up 0", async () => {
    const port = await freePort();
    const clock = new FakeClock(0);
    edge = createEdgeRuntime({
      redis: { url: `redis://127.0.0.1:${port}`, timeoutMs: 200 },
      clock,
      log: { info() {}, warn() {}, error() {} },
      checkMs: 0,
      usage: { timers: false },
    });
    const rt = edge;
    const first = healthOf(rt);
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ status: "starting", redis: "connecting", policy: null });
    // The connection is refused: down, as soon as the client says so.
    await vi.waitFor(() => expect(healthOf(rt).body.redis).toBe("down"), { timeout: 5_000 });
    expect(await sample(rt.metrics, "ratekeeper_store_up")).toBe(0);
  });
});
