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
 * timeCommands rejects each command of `client` that has no reply `timeoutMs` after it was sent,
 * like ioredis's `commandTimeout`, without blaming Redis for this process's own delays. That
 * option's timer fires in the event loop's timers phase, which runs before the poll phase reads
 * the replies that arrived while the loop was busy: a burst of requests keeps an instance's loop
 * busy for longer than 200 ms, so replies Redis sent within a millisecond counted as timeouts, a
 * "Redis unreachable" incident, and fail-open decisions on the stand-in (over-admitting). Here
 * an expired timer first lets one poll phase read what has arrived (setImmediate runs after it)
 * and rejects only when the reply is still missing.
 */
function timeCommands(client: Redis, timeoutMs: number): void {
  const send = client.sendCommand.bind(client);
  client.sendCommand = (...args: Parameters<Redis["sendCommand"]>) => {
    const [command] = args;
    const result = send(...args);
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (!settled) command.reject(new Error("Command timed out"));
      });
    }, timeoutMs);
    const done = () => {
      settled = true;
      clearTimeout(timer);
    };
    command.promise.then(done, done);
    return result;
  };
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
    enableOfflineQueue: false,
    connectionName: "ratekeeper",
  });
  timeCommands(client, timeoutMs);
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
