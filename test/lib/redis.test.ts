import { once } from "node:events";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "@/lib/log";
import { connectRedis, redactUrl } from "@/lib/redis";
import { type RedisServer, startRedisServer } from "../support/redis-server";

/** busy keeps this thread from running anything else for `ms`, as a burst of requests would. */
function busy(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe("connectRedis", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("does not time out a reply that arrived while the process was busy", async () => {
    const { client, subscriber } = connectRedis(server.url, 50, silentLogger);
    try {
      await new Promise((resolve) => client.once("ready", resolve));
      const replies = [client.ping(), client.ping(), client.ping()];
      // Redis answers at once; this process reads the replies only after 150 ms, past the timeout.
      busy(150);
      expect(await Promise.all(replies)).toEqual(["PONG", "PONG", "PONG"]);
    } finally {
      client.disconnect();
      subscriber.disconnect();
    }
  });

  it("times out a command Redis does not answer", async () => {
    const { client, subscriber } = connectRedis(server.url, 50, silentLogger);
    const admin = server.client();
    try {
      await new Promise((resolve) => client.once("ready", resolve));
      await admin.call("CLIENT", "PAUSE", "400", "ALL");
      await expect(client.ping()).rejects.toThrow("Command timed out");
    } finally {
      await admin.call("CLIENT", "UNPAUSE");
      client.disconnect();
      subscriber.disconnect();
    }
  });

  // Regression: closing a runtime while its subscriber was reconnecting left an unhandled
  // "Connection is closed." rejection: ioredis's own resubscription, sent once the ready check
  // was answered, went unanswered on a connection already closing.
  it("closes a subscriber mid-reconnection without an unhandled rejection", async () => {
    const { client, subscriber } = connectRedis(server.url, 200, silentLogger);
    const admin = server.client();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      await subscriber.subscribe("resubscribed");
      // Once the reconnection's ready check is on the wire, close: its answer arrives on a
      // connection that is closing, and ioredis subscribes again there.
      subscriber.once("connect", () => {
        const send = subscriber.sendCommand.bind(subscriber) as Redis["sendCommand"];
        subscriber.sendCommand = (...args: Parameters<Redis["sendCommand"]>) => {
          const result = send(...args);
          if (args[0].name === "info") subscriber.disconnect();
          return result;
        };
      });
      const ended = once(subscriber, "end");
      await admin.call("CLIENT", "KILL", "TYPE", "pubsub");
      await ended;
      // Unhandled rejections are reported once the microtasks of a turn have run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      client.disconnect();
      subscriber.disconnect();
    }
  });

  it("fails a command at once while disconnected instead of queueing it", async () => {
    const { client, subscriber } = connectRedis("redis://127.0.0.1:1", 50, silentLogger);
    try {
      await expect(client.ping()).rejects.toThrow(/writeable|enableOfflineQueue/);
    } finally {
      client.disconnect();
      subscriber.disconnect();
    }
  });
});

describe("redactUrl", () => {
  it("drops credentials from what is logged", () => {
    expect(redactUrl("rediss://user:secret@cache.internal:6380/2")).toBe(
      "rediss://cache.internal:6380/2",
    );
    expect(redactUrl("not a url")).toBe("(unparsable URL)");
  });
});
