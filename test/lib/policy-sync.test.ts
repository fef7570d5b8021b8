import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Logger } from "@/lib/log";
import { PolicyNotices, PolicySync } from "@/lib/policy/policy-sync";
import { connectRedis } from "@/lib/redis";
import { type RedisServer, startRedisServer } from "../support/redis-server";

/** instance is one app instance's side of the sync: its clients, its reload count, its log. */
function instance(server: RedisServer, channel: string) {
  const lines: string[] = [];
  const log: Logger = {
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
  const { client, subscriber } = connectRedis(server.url, 200, log);
  const reload = vi.fn();
  const notices = new PolicyNotices({ publisher: client, channel, log });
  const sync = new PolicySync({
    notices,
    subscriber,
    refresh: reload,
    reset: () => {},
    caughtUp: () => {},
    log,
  });
  return {
    notices,
    sync,
    reload,
    lines,
    client,
    close() {
      sync.close();
      client.disconnect();
    },
  };
}

describe("PolicySync", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("rebuilds the other instances' policy on a notice, not the sender's", async () => {
    const a = instance(server, "sync-1:policy");
    const b = instance(server, "sync-1:policy");
    const elsewhere = instance(server, "sync-other:policy");
    try {
      await Promise.all([a.sync.subscribed, b.sync.subscribed, elsewhere.sync.subscribed]);
      await vi.waitFor(() => expect(a.client.status).toBe("ready"));
      // Subscribing catches up once on what changed before it.
      expect([a.reload.mock.calls.length, b.reload.mock.calls.length]).toEqual([1, 1]);
      a.notices.publish();
      await vi.waitFor(() => expect(b.reload).toHaveBeenCalledTimes(2), { timeout: 1_000 });
      expect(a.reload).toHaveBeenCalledTimes(1);
      expect(elsewhere.reload).toHaveBeenCalledTimes(1);
    } finally {
      a.close();
      b.close();
      elsewhere.close();
    }
  });

  it("catches up after Redis comes back, and keeps receiving notices", async () => {
    const a = instance(server, "sync-2:policy");
    const b = instance(server, "sync-2:policy");
    try {
      await Promise.all([a.sync.subscribed, b.sync.subscribed]);
      await server.stop();
      // A notice sent while Redis is down is lost: the sender logs it and goes on.
      a.notices.publish();
      await vi.waitFor(() =>
        expect(a.lines.some((l) => l.startsWith("Could not announce a policy change"))).toBe(true),
      );
      const before = b.reload.mock.calls.length;
      await server.start();
      // Resubscribing reloads: whatever changed meanwhile is picked up.
      await vi.waitFor(() => expect(b.reload.mock.calls.length).toBe(before + 1), {
        timeout: 5_000,
        interval: 20,
      });
      await vi.waitFor(
        async () => {
          expect(await server.client().pubsub("NUMSUB", "sync-2:policy")).toEqual([
            "sync-2:policy",
            2,
          ]);
          expect(a.client.status).toBe("ready");
        },
        { timeout: 5_000, interval: 20 },
      );
      a.notices.publish();
      await vi.waitFor(() => expect(b.reload.mock.calls.length).toBe(before + 2), {
        timeout: 1_000,
      });
    } finally {
      a.close();
      b.close();
    }
  });
});
