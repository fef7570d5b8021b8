import { Command, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limit } from "@/lib/limiter";
import { RedisLimiter } from "@/lib/limiter-redis";
import { DecideCommand } from "@/lib/limiter-redis/decide-command";
import { DECIDE_SHA } from "@/lib/limiter-redis/script";
import { type RedisServer, startRedisServer } from "../support/redis-server";

// The decision script's EVALSHA encodes itself in one piece: the same bytes ioredis writes.

let server: RedisServer;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await server?.close();
});

/** ioredisBytes is how ioredis itself encodes EVALSHA of DECIDE over `keys` with `args`. */
function ioredisBytes(keys: string[], args: Buffer, keyPrefix?: string): Buffer {
  const command = new Command("evalsha", [DECIDE_SHA, keys.length, ...keys, args], {
    replyEncoding: null,
    keyPrefix,
  });
  return command.toWritable({}) as Buffer;
}

describe("DecideCommand", () => {
  it.each([
    ["one key", ["rk:{203.0.113.7}:10/3600000"]],
    ["no key", []],
    ["several keys", ["rk:{a}:1/1000", "rk:{a}:5/60000", "rk:{b}:7/1500"]],
    ["keys beyond ASCII", ["rk:{café}:1/1000", "rk:{客户}:2/1000", "rk:{🙂}:3/1000"]],
  ])("writes the bytes ioredis writes, %s", (_name, keys) => {
    const client = new Redis({ lazyConnect: true });
    const args = Buffer.from(Array.from({ length: 56 }, (_, i) => (i * 37) % 256));
    expect(new DecideCommand(client, keys, args).toWritable()).toEqual(ioredisBytes(keys, args));
    const prefixed = new Redis({ lazyConnect: true, keyPrefix: "app:" });
    expect(new DecideCommand(prefixed, keys, args).toWritable()).toEqual(
      ioredisBytes(keys, args, "app:"),
    );
  });

  it("decides through a client with a key prefix, as ioredis's own commands would", async () => {
    const prefixed = new Redis({ port: server.port, host: "127.0.0.1", keyPrefix: "app:" });
    try {
      const limiter = new RedisLimiter(prefixed, (k: string) => k, limit(2, "1h"));
      expect(await limiter.allow("k")).toBe(true);
      expect(await limiter.allow("k")).toBe(true);
      expect(await limiter.allow("k")).toBe(false);
      const plain = server.client();
      expect(await plain.keys("*")).toEqual(["app:rk:{k}:2/3600000"]);
    } finally {
      prefixed.disconnect();
    }
  });
});
