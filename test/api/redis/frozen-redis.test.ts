import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Metrics } from "@/lib/metrics";
import { decide } from "@/lib/policy/decide";
import type { DataPlaneRuntime } from "@/lib/runtime";
import { createEdgeRuntime } from "@/lib/runtime/edge";
import { type RedisServer, startRedisServer } from "../../support/redis-server";
import { createTestRuntime, openTestRuntime, type TestRuntime } from "../../support/runtime";
import { startTcpProxy, type TcpProxy } from "../../support/tcp-proxy";

// Redis hangs (SIGSTOP) or an edge's link to it is cut (a proxy that holds the bytes) for 5 s,
// under writes; then it comes back and every held command runs. A write refused meanwhile
// ("store unavailable") must not be charged when its script finally runs: afterwards the
// customer's tokens are its limit minus the writes admitted. Real time passes here (a hung
// Redis is noticed only by a timer); each test lasts about seven seconds.

const HOUR = 3_600_000;
/** LIMIT is the customer's writes per hour: more than the test admits, so none is refused 429. */
const LIMIT = 40;
/** OUTAGE_MS is how long Redis hangs or the link is cut. */
const OUTAGE_MS = 5_000;
/** TICK_MS is the pace of the writes, in real time and on the app's clock alike. */
const TICK_MS = 50;

let server: RedisServer;
let prefixes = 0;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.close();
});

/** sleep waits on the wall clock: a hung Redis is noticed by timers only. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writer sends writes for one customer through the decision path of each instance it is given. */
class Writer {
  admitted = 0;
  refused = 0;
  other = 0;
  private readonly pending: Promise<void>[] = [];

  constructor(
    private readonly customerId: number,
    private readonly t: TestRuntime,
  ) {}

  /** write sends `count` concurrent writes through `runtime` (they share a script run). */
  write(runtime: DataPlaneRuntime, count: number): void {
    const customer = runtime.policy.snapshot.byId.get(this.customerId);
    if (!customer) throw new Error("the instance does not know the customer");
    for (let i = 0; i < count; i++) {
      const verdict = Promise.resolve(decide(runtime, customer, "write", 1));
      this.pending.push(
        verdict.then((v) => {
          if (v.reason === "ok") this.admitted++;
          else if (v.reason === "store_unavailable") this.refused++;
          else this.other++;
        }),
      );
    }
  }

  /**
   * run calls `tick` every TICK_MS of real time, advancing the app's clock as much, for `ms`,
   * or until `tick` answers false.
   */
  async run(ms: number, tick: (i: number) => boolean | undefined): Promise<void> {
    for (let i = 0; i * TICK_MS < ms; i++) {
      if (tick(i) === false) return;
      await sleep(TICK_MS);
      this.t.clock.advance(TICK_MS);
    }
  }

  /** settled waits for every write sent. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  /** remaining peeks at the customer's write tokens through `runtime`, in Redis. */
  async remaining(runtime: DataPlaneRuntime): Promise<number> {
    const customer = runtime.policy.snapshot.byId.get(this.customerId);
    if (!customer) throw new Error("the instance does not know the customer");
    const peeked = await runtime.decisions.peek({
      customer,
      operation: "write",
      now: this.t.clock.now(),
    });
    expect(peeked.source).toBe("redis");
    return peeked.details.tokensRemaining;
  }
}

/** unanswered reads one outcome of ratekeeper_redis_unanswered_decisions_total. */
async function unanswered(metrics: Metrics, outcome: string): Promise<number> {
  const text = await metrics.registry.metrics();
  const line = text
    .split("\n")
    .find((l) => l.startsWith(`ratekeeper_redis_unanswered_decisions_total{outcome="${outcome}"}`));
  return Number(line?.split(" ").pop() ?? Number.NaN);
}

/** fullRuntime is a full instance on the test server, under a fresh prefix, with a customer. */
async function fullRuntime() {
  const prefix = `frozen${++prefixes}`;
  const redis = { url: server.url, prefix, timeoutMs: 200 };
  const t = createTestRuntime({ redis });
  await t.runtime.ready();
  t.addPlan("forty-writes", [{ operation: "write", count: LIMIT, periodMs: HOUR }]);
  const { id } = t.addCustomer("forty-writes");
  return { t, id, redis };
}

describe("a refused write is never charged", () => {
  it("when Redis hangs for 5 s under writes from two instances", async () => {
    const { t, id, redis } = await fullRuntime();
    const other = openTestRuntime(t.databasePath, t.clock, { redis });
    try {
      await other.ready();
      const instances = [t.runtime, other];
      const writer = new Writer(id, t);
      const tick = () => {
        for (const runtime of instances) writer.write(runtime, 2);
        return true;
      };
      await writer.run(2 * TICK_MS, tick);
      server.freeze();
      try {
        await writer.run(OUTAGE_MS, tick);
      } finally {
        server.thaw();
      }
      // Writes go on until both instances have noticed Redis is back (a PING each interval),
      // and three ticks more.
      let after = 0;
      await writer.run(5_000, () => {
        if (instances.every((rt) => rt.decisions.status().redis === "up")) after++;
        return after <= 3 && tick();
      });
      expect(after).toBe(4);
      await writer.settled();

      expect(writer.refused).toBeGreaterThan(0);
      for (const runtime of instances) {
        expect(await writer.remaining(runtime)).toBe(LIMIT - writer.admitted);
      }
      // None was refused for its limit: the limit is above what the test admits.
      expect(writer.other).toBe(0);
      expect(writer.admitted).toBeGreaterThan(4);
      // Each instance had writes in flight when Redis froze: they reached it late, took nothing.
      for (const runtime of instances) {
        expect(await unanswered(runtime.metrics, "expired")).toBeGreaterThan(0);
        expect(await unanswered(runtime.metrics, "charged")).toBe(0);
      }
    } finally {
      other.close();
      t.cleanup();
    }
  }, 30_000);

  it("when an edge's link to Redis is cut for 5 s, under writes from the edge and the control plane", async () => {
    const { t, id, redis } = await fullRuntime();
    const proxy: TcpProxy = await startTcpProxy(server.port);
    const edge = createEdgeRuntime({
      redis: { ...redis, url: proxy.url },
      clock: t.clock,
      log: { info() {}, warn() {}, error() {} },
      checkMs: 0,
      usage: { timers: false },
    });
    try {
      await edge.ready();
      const writer = new Writer(id, t);
      // The edge writes twice a tick; the control plane, on its own link, once every ten.
      const tick = (i: number) => {
        writer.write(edge, 2);
        if (i % 10 === 0) writer.write(t.runtime, 1);
        return true;
      };
      await writer.run(2 * TICK_MS, tick);
      proxy.hold();
      try {
        await writer.run(OUTAGE_MS, tick);
        // What the edge sent meanwhile waits in the proxy, to reach Redis late.
        expect(proxy.heldBytes()).toBeGreaterThan(0);
      } finally {
        proxy.release();
      }
      let after = 0;
      await writer.run(5_000, (i) => {
        if (edge.decisions.status().redis === "up") after++;
        return after <= 3 && tick(i);
      });
      expect(after).toBe(4);
      await writer.settled();

      expect(writer.refused).toBeGreaterThan(0);
      expect(await writer.remaining(edge)).toBe(LIMIT - writer.admitted);
      expect(await writer.remaining(t.runtime)).toBe(LIMIT - writer.admitted);
      expect(writer.other).toBe(0);
      expect(await unanswered(edge.metrics, "expired")).toBeGreaterThan(0);
      expect(await unanswered(edge.metrics, "charged")).toBe(0);
    } finally {
      edge.close();
      await proxy.close();
      t.cleanup();
    }
  }, 30_000);
});
