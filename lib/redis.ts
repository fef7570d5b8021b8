import { Cluster, type ClusterNode, Redis, type RedisOptions, ReplyError } from "ioredis";
import { isDecisionCommand } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";

/** RedisClients are the two connections an instance keeps: commands, and the subscription. */
export interface RedisClients<C extends Redis | Cluster = Redis> {
  client: C;
  subscriber: C;
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
 * and rejects only when the reply is still missing. The decision script is left to its own
 * deadline (isDecisionCommand): rejecting it here, before Redis's deadline for it has passed,
 * would answer "unavailable" for a decision that may still run and take tokens.
 */
function timeCommands(client: Redis | Cluster, timeoutMs: number): void {
  const send = client.sendCommand.bind(client) as Redis["sendCommand"];
  client.sendCommand = (...args: Parameters<Redis["sendCommand"]>) => {
    const [command] = args;
    const result = send(...args);
    if (isDecisionCommand(command)) return result;
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
 * watchUnanswered calls `listener` for each command of `client` that Redis did not answer (it
 * timed out, or the connection was not open), so a background call noticing a hung or lost Redis
 * tells the decisions. Error replies are answers and are left out, and so are the decision
 * script (the decisions count their own failures) and PING (the decisions' own probe).
 */
export function watchUnanswered(client: Redis | Cluster, listener: (error: unknown) => void): void {
  const send = client.sendCommand.bind(client) as Redis["sendCommand"];
  client.sendCommand = (...args: Parameters<Redis["sendCommand"]>) => {
    const [command] = args;
    const result = send(...args);
    if (!isDecisionCommand(command) && command.name !== "ping") {
      command.promise.catch((error: unknown) => {
        if (!(error instanceof ReplyError)) listener(error);
      });
    }
    return result;
  };
}

/** SUBSCRIBING are the commands that put a connection in subscriber mode, in ioredis's names. */
const SUBSCRIBING = new Set(["subscribe", "psubscribe", "ssubscribe"]);

/**
 * settleResubscriptions gives every subscribing command of `subscriber` a rejection handler.
 * After a reconnection ioredis subscribes again by itself, once its ready check is answered, and
 * keeps that call's promise to itself: closed in that window (at shutdown, or as a runtime is
 * closed), the connection rejects it with "Connection is closed." and nothing handles it, which
 * ends a Node process. A caller's own call still rejects to the caller (PolicySync logs its
 * failure), and each reconnection subscribes again and catches up (PolicySync's `ready`). A
 * Cluster's subscriber needs none of this: ioredis handles its resubscriptions there.
 */
function settleResubscriptions(subscriber: Redis): void {
  const send = subscriber.sendCommand.bind(subscriber) as Redis["sendCommand"];
  subscriber.sendCommand = (...args: Parameters<Redis["sendCommand"]>) => {
    const [command] = args;
    const result = send(...args);
    if (SUBSCRIBING.has(command.name)) command.promise.catch(() => {});
    return result;
  };
}

/**
 * connectRedis opens the command and subscriber connections. Commands fail fast instead of
 * queueing while disconnected (a queued decision would consume tokens long after the request
 * was answered), time out after `timeoutMs` (a decision's script by its own deadline, which
 * Redis enforces), and are never resent after a reconnect; the
 * clients reconnect by themselves every half second at most, the subscriber subscribing again
 * (settleResubscriptions). Connection errors are not logged here: the decisions log each
 * incident once.
 */
export function connectRedis(url: string, timeoutMs: number, log: Logger): RedisClients {
  const common: RedisOptions = {
    ...commonOptions(timeoutMs),
    retryStrategy: reconnectDelay,
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
  settleResubscriptions(subscriber);
  announceOnce(client, `Buckets are in Redis at ${redactUrl(url)}`, log);
  client.on("error", () => {});
  subscriber.on("error", () => {});
  return { client, subscriber };
}

/** The options of every connection, to one server or to each node of a cluster. */
function commonOptions(timeoutMs: number): RedisOptions {
  return {
    connectTimeout: Math.max(1_000, timeoutMs),
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
  };
}

/** reconnectDelay waits longer after each failed attempt, half a second at most. */
function reconnectDelay(times: number): number {
  return Math.min(times * 50, 500);
}

function announceOnce(client: Redis | Cluster, where: string, log: Logger): void {
  let announced = false;
  client.on("ready", () => {
    if (announced) return;
    announced = true;
    log.info(`${where}, shared with every instance using it.`);
  });
}

/**
 * clusterNodeOf reads a node's address from its URL; the credentials and TLS of the first
 * URL apply to every node (`clusterRedisOptions`).
 */
function clusterNodeOf(url: string): ClusterNode {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 6379) };
}

function clusterRedisOptions(url: string, timeoutMs: number): RedisOptions {
  const parsed = new URL(url);
  return {
    ...commonOptions(timeoutMs),
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    tls: parsed.protocol === "rediss:" ? {} : undefined,
  };
}

/**
 * connectRedisCluster opens the command and subscriber connections to a Redis Cluster, known
 * by one or more of its nodes' URLs (the client discovers the others and follows the slots
 * as they move). Commands behave as with `connectRedis`: they fail fast instead of queueing
 * while the cluster is unreachable, time out after `timeoutMs`, and are never resent after
 * a connection drops (a redirection, which Redis answers before running anything, is still
 * followed). Writes to the same node in one tick share a round trip (auto-pipelining): the
 * limiter cannot batch decisions across slots on a cluster.
 */
export function connectRedisCluster(
  urls: readonly string[],
  timeoutMs: number,
  log: Logger,
): RedisClients<Cluster> {
  const first = urls[0];
  if (first === undefined) throw new RangeError("a Redis Cluster needs at least one node URL");
  const nodes = urls.map(clusterNodeOf);
  const redisOptions = clusterRedisOptions(first, timeoutMs);
  const client = new Cluster(nodes, {
    redisOptions: { ...redisOptions, connectionName: "ratekeeper" },
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    clusterRetryStrategy: reconnectDelay,
  });
  timeCommands(client, timeoutMs);
  const subscriber = new Cluster(nodes, {
    redisOptions: { ...redisOptions, maxRetriesPerRequest: null, connectionName: "ratekeeper-sub" },
    clusterRetryStrategy: reconnectDelay,
  });
  announceOnce(
    client,
    `Buckets are in the Redis Cluster at ${urls.map(redactUrl).join(", ")}`,
    log,
  );
  client.on("error", () => {});
  subscriber.on("error", () => {});
  return { client, subscriber };
}
