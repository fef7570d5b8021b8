import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { UsageBatch } from "@/lib/usage/batch";
import { batchOfHash } from "@/lib/usage/redis-codec";
import { RedisUsageRelay } from "@/lib/usage/redis-relay";
import { MINUTE_MS } from "@/lib/usage/time";
import { type RedisServer, startRedisServer } from "../support/redis-server";

// A usage push that Redis runs late: it timed out while Redis hung, was sent again (its chunk's
// id unchanged), and both copies ran once Redis resumed. The chunk's marker lets one count.

let server: RedisServer;
let redis: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  redis = server.client();
  await redis.ping();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.thaw();
});

const silent = { info() {}, warn() {}, error() {} };
const START = 29 * MINUTE_MS;

function batchOf(allowed: number, startMs = START): UsageBatch {
  return {
    rows: [
      {
        startMs,
        customerId: 7,
        operation: "write",
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

/** minute reads what Redis holds for one minute, back as a batch. */
async function minute(prefix: string, startMs = START): Promise<UsageBatch> {
  return batchOfHash(startMs, await redis.hgetall(`${prefix}:{usage}:m:${startMs}`));
}

describe("RedisUsageRelay when Redis hangs", () => {
  it("counts a push that timed out, was sent again and then ran twice, once", async () => {
    const prefix = "late-push";
    // 20 ms per call: a push waits five times that, 100 ms.
    const relay = new RedisUsageRelay({ redis, prefix, timeoutMs: 20, log: silent });
    server.freeze();
    try {
      const first = await relay.push(batchOf(3), { handBack: true });
      expect(first).toMatchObject({ failed: true, pushedRows: 0, unsent: null });
      // Sent again, still unanswered: both copies wait in the socket. What is new meanwhile is
      // handed back, never sent (an instance with a database writes it itself).
      const again = await relay.push(batchOf(4, START + MINUTE_MS), { handBack: true });
      expect(again.failed).toBe(true);
      expect(again.unsent?.rows.map((r) => r.allowed)).toEqual([4]);
    } finally {
      server.thaw();
    }
    // Both copies ran when Redis resumed; the next push is told the chunk is in.
    const settled = await relay.push({ rows: [], dryRun: [] }, { handBack: true });
    expect(settled).toMatchObject({ failed: false, pushedRows: 1 });
    expect(relay.pendingRows).toBe(0);
    expect((await minute(prefix)).rows.map((r) => [r.allowed, r.tokensTaken])).toEqual([[3, 3]]);
    expect((await minute(prefix, START + MINUTE_MS)).rows).toEqual([]);
  });
});
