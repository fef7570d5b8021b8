import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "@/lib/log";

/** RedisClients are the two connections an instance keeps: commands, and the subscription. */
export interface RedisClients {
  client: Redis;
  subscriber: Redis;
}

/** redactUrl drops the credentials from a Redis URL, for the log. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/**
 * connectRedis opens the command and subscriber connections. Commands fail fast instead of
 * queueing while disconnected (a queued decision would consume tokens long after the request
 * was answered), time out after `timeoutMs`, and are never resent after a reconnect; the
 * clients reconnect by themselves every half second at most. Connection errors are not logged
 * here: the decisions log each incident once.
 */
export function connectRedis(url: string, timeoutMs: number, log: Logger): RedisClients {
  const common: RedisOptions = {
    connectTimeout: Math.max(1_000, timeoutMs),
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times) => Math.min(times * 50, 500),
  };
  const client = new Redis(url, {
    ...common,
    commandTimeout: timeoutMs,
    enableOfflineQueue: false,
    connectionName: "ratekeeper",
  });
  // The subscription may wait for the connection: SUBSCRIBE is queued until it is up.
  const subscriber = new Redis(url, {
    ...common,
    maxRetriesPerRequest: null,
    connectionName: "ratekeeper-sub",
  });
  const where = redactUrl(url);
  let announced = false;
  client.on("ready", () => {
    if (announced) return;
    announced = true;
    log.info(`Buckets are in Redis at ${where}, shared with every instance using it.`);
  });
  client.on("error", () => {});
  subscriber.on("error", () => {});
  return { client, subscriber };
}
