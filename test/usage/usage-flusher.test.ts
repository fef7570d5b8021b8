import { describe, expect, it } from "vitest";
import type { RedisClient } from "@/lib/limiter-redis";
import type { Metrics } from "@/lib/metrics";
import type { UsageBatch } from "@/lib/usage/batch";
import { RedisUsageRelay } from "@/lib/usage/redis-relay";
import { KEEP_FOR_NEXT_PUSH, RedisUsageSink, type UnpushedCounts } from "@/lib/usage/redis-sink";
import { MINUTE_MS } from "@/lib/usage/time";
import { UsageFlusher } from "@/lib/usage/usage-flusher";
import type { SinkResult, UsageSink } from "@/lib/usage/usage-sink";
import { FakeClock } from "../support/fake-clock";

// The write side's parts without a Redis server: a client that never connects is a Redis that
// cannot be sent anything, so every push hands its counts to the sink's `unpushed`.

const START = 29 * MINUTE_MS;

function batchOf(allowed: number): UsageBatch {
  return {
    rows: [
      {
        startMs: START,
        customerId: 7,
        operation: "read",
        planId: 2,
        allowed,
        denied: 0,
        unavailable: 0,
        tooLarge: 0,
        tokensRequested: allowed,
        tokensTaken: allowed,
      },
    ],
    dryRun: [],
  };
}

/** flushLog records what the sinks tell the metrics and the log. */
function flushLog() {
  const events: string[] = [];
  const metrics = {
    usageFlushed: (sink: string, rows: number) => events.push(`${sink} +${rows}`),
    usageFlushFailed: (sink: string) => events.push(`${sink} failed`),
  } as unknown as Metrics;
  const log = {
    info() {},
    warn: (message: string) => events.push(`warn: ${message}`),
    error: (message: string) => events.push(`error: ${message}`),
  };
  return { events, metrics, log };
}

/** downRelay is a relay whose Redis is not connected. */
function downRelay(log: ReturnType<typeof flushLog>["log"]): RedisUsageRelay {
  const redis = { status: "reconnecting" } as unknown as RedisClient;
  return new RedisUsageRelay({ redis, prefix: "rk", timeoutMs: 50, log });
}

describe("RedisUsageSink while Redis cannot be sent anything", () => {
  it("on an edge keeps the counts in the relay for the next push", async () => {
    const { events, metrics, log } = flushLog();
    const relay = downRelay(log);
    const sink = new RedisUsageSink({ relay, unpushed: KEEP_FOR_NEXT_PUSH, metrics, log });
    expect(await sink.write(batchOf(3))).toEqual({ rows: 0, flushed: false });
    expect(await sink.write(batchOf(2))).toEqual({ rows: 0, flushed: false });
    expect(sink.pendingRows).toBe(2);
    expect(relay.pendingRows).toBe(2);
    expect(events).toEqual(["redis failed", "redis failed"]);
    sink.stopped();
    expect(events.at(-1)).toBe("warn: 2 usage rows could not reach Redis before the stop.");
  });

  it("on the full app hands the counts to its unpushed strategy at once", async () => {
    const { events, metrics, log } = flushLog();
    const relay = downRelay(log);
    const taken: number[] = [];
    const unpushed: UnpushedCounts = {
      takesUnsent: true,
      writeNow: (batch) => {
        taken.push(...batch.rows.map((r) => r.allowed));
        return { rows: batch.rows.length, flushed: true };
      },
      pendingRows: 0,
    };
    const sink = new RedisUsageSink({ relay, unpushed, metrics, log });
    expect(await sink.write(batchOf(3))).toEqual({ rows: 1, flushed: true });
    expect(taken).toEqual([3]);
    expect(relay.pendingRows).toBe(0);
    expect(events).toEqual(["redis failed"]);
    sink.stopped();
    expect(events).toEqual(["redis failed"]);
  });
});

/** recordingSink keeps what it is given: by `write`, and by `halt`. */
function recordingSink(result: SinkResult) {
  const written: UsageBatch[] = [];
  const halted: UsageBatch[] = [];
  let stops = 0;
  const sink: UsageSink = {
    write: async (batch) => {
      written.push(batch);
      return result;
    },
    pendingRows: 5,
    halt: (batch) => {
      halted.push(batch);
    },
    stopped: () => {
      stops++;
    },
  };
  return { sink, written, halted, stops: () => stops };
}

describe("UsageFlusher", () => {
  const silent = { info() {}, warn() {}, error() {} };

  it("drains the counter into its one sink, and dates the flush only when the sink placed it", async () => {
    const clock = new FakeClock(START);
    const placed = recordingSink({ rows: 1, flushed: true });
    const flusher = new UsageFlusher({ sink: placed.sink, clock, log: silent });
    flusher.record(7, 2, "read", "allowed", 1, 1, START);
    expect(flusher.pendingRows()).toBe(1 + 5);
    clock.advance(3_000);
    expect(await flusher.flush()).toBe(1);
    expect(placed.written.map((b) => b.rows.length)).toEqual([1]);
    expect(flusher.lastFlushAgeSeconds()).toBe(0);

    const refused = recordingSink({ rows: 0, flushed: false });
    const stuck = new UsageFlusher({ sink: refused.sink, clock, log: silent });
    clock.advance(2_000);
    expect(await stuck.flush()).toBe(0);
    expect(stuck.lastFlushAgeSeconds()).toBe(2);
  });

  it("flushes once at stop, then halts nothing; halt alone hands memory's counts to the sink", async () => {
    const clock = new FakeClock(START);
    const stopped = recordingSink({ rows: 1, flushed: true });
    const a = new UsageFlusher({ sink: stopped.sink, clock, log: silent });
    a.record(7, 2, "read", "allowed", 1, 1, START);
    await a.stop();
    await a.stop();
    a.halt();
    expect([stopped.written.length, stopped.stops(), stopped.halted.length]).toEqual([1, 1, 0]);

    const halted = recordingSink({ rows: 1, flushed: true });
    const b = new UsageFlusher({ sink: halted.sink, clock, log: silent });
    b.record(7, 2, "write", "denied", 1, 0, START);
    b.halt();
    b.halt();
    await b.stop();
    expect(halted.halted.map((batch) => batch.rows[0]?.denied)).toEqual([1]);
    expect([halted.written.length, halted.stops()]).toEqual([0, 0]);
  });
});
