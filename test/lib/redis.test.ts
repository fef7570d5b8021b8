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
