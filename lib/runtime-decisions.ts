import type { Env } from "@/lib/env";
import type { Clock, Limiter } from "@/lib/limiter";
import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import { createMetrics, type Metrics } from "@/lib/metrics";
import { type DecisionStore, MemoryDecisionStore } from "@/lib/policy/decision-store";
import { DEFAULT_DENY_CACHE_ENTRIES, DenyCache } from "@/lib/policy/deny-cache";
import type { RequestInput } from "@/lib/policy/policy-limiter";
import type { PolicyStore } from "@/lib/policy/policy-store";
import { PolicySync } from "@/lib/policy/policy-sync";
import { type FailurePolicy, RedisDecisionStore } from "@/lib/policy/redis-decision-store";
import { connectRedis, connectRedisCluster, watchUnanswered } from "@/lib/redis";
import type { UsageSettings } from "@/lib/usage/usage-service";

/**
 * RedisOptions configure the Redis store (see lib/env.ts for the variables behind them): one
 * server (`url`) or a Redis Cluster (`clusterNodes`), exactly one of them.
 */
export interface RedisOptions {
  /** url is one Redis server's redis:// or rediss:// URL. */
  url?: string;
  /** clusterNodes are URLs of Redis Cluster nodes: one is enough, the client finds the rest. */
  clusterNodes?: readonly string[];
  prefix?: string;
  /** timeoutMs bounds each Redis call (200 ms by default). */
  timeoutMs?: number;
  failure?: FailurePolicy;
  /** decisionClock replaces the Redis server's clock: tests only. */
  decisionClock?: Clock;
  /**
   * denyCache is how many refusals this instance remembers until their retry-after, answering
   * repeated requests over the limit without Redis (10,000 by default); 0 turns it off.
   */
  denyCache?: number;
}

/** connectStore opens the Redis connections of `options`: one server, or a cluster. */
function connectStore(options: RedisOptions, timeoutMs: number, log: Logger) {
  const { url, clusterNodes } = options;
  if ((url === undefined) === (clusterNodes === undefined)) {
    throw new TypeError("Redis options need exactly one of url and clusterNodes");
  }
  return url !== undefined
    ? connectRedis(url, timeoutMs, log)
    : connectRedisCluster(clusterNodes ?? [], timeoutMs, log);
}

/** redisOptionsOf reads the Redis settings from the validated environment: none without Redis. */
export function redisOptionsOf(env: Env): RedisOptions | undefined {
  if (!env.REDIS_URL && !env.REDIS_CLUSTER_NODES) return undefined;
  return {
    url: env.REDIS_URL,
    clusterNodes: env.REDIS_CLUSTER_NODES,
    prefix: env.REDIS_PREFIX,
    timeoutMs: env.REDIS_TIMEOUT_MS,
    failure: { read: env.REDIS_READS_ON_FAILURE, write: env.REDIS_WRITES_ON_FAILURE },
    denyCache: env.REDIS_DENY_CACHE === "on" ? env.REDIS_DENY_CACHE_SIZE : 0,
  };
}

/** usageSettingsOf reads the usage rollups' settings from the validated environment. */
export function usageSettingsOf(env: Env): Partial<UsageSettings> {
  return {
    flushIntervalMs: env.USAGE_FLUSH_INTERVAL_MS,
    minuteRetentionDays: env.USAGE_MINUTE_RETENTION_DAYS,
    hourRetentionDays: env.USAGE_HOUR_RETENTION_DAYS,
  };
}

/** RedisPlane is what the Redis store of a runtime holds besides its decisions. */
export interface RedisPlane {
  /** client is the command connection (one server or a cluster). */
  client: RedisClient;
  /** sync carries the policy notices between instances (and edges). */
  sync: PolicySync;
  prefix: string;
  /** timeoutMs bounds each call (the usage relay times its own by it too). */
  timeoutMs: number;
}

/** Decisions are a runtime's decision store and counters, and its Redis connections if any. */
export interface Decisions {
  decisions: DecisionStore;
  metrics: Metrics;
  redis?: RedisPlane;
}

/** DecisionsOptions: what deciding is built from; `reload` rereads the policy after a notice. */
export interface DecisionsOptions {
  clock: Clock;
  log: Logger;
  policy: PolicyStore;
  limiter: Limiter<RequestInput, string>;
  redis?: RedisOptions;
  /** reload rebuilds the policy when another instance announces a change (and after a reconnect). */
  reload: () => void;
}

/**
 * createDecisions builds the decisions of a runtime, full or edge alike: in memory, or on Redis
 * with the deny cache, the policy notices (`reload` on a change, the deny cache and stand-in
 * dropped on a reset or after a reconnection) and the metrics that watch them.
 */
export function createDecisions(options: DecisionsOptions): Decisions {
  const { clock, log, policy, limiter } = options;
  let decisions: DecisionStore = new MemoryDecisionStore(limiter);
  let denyCache: DenyCache | undefined;
  const metrics = createMetrics(
    () => limiter.size,
    () => (decisions.status().redis ?? "up") === "up",
    () => denyCache?.size ?? 0,
  );
  if (!options.redis) return { decisions, metrics };
  const { prefix = "rk", timeoutMs = 200 } = options.redis;
  const denyCacheEntries = options.redis.denyCache ?? DEFAULT_DENY_CACHE_ENTRIES;
  if (denyCacheEntries > 0) denyCache = new DenyCache(denyCacheEntries);
  const { client, subscriber } = connectStore(options.redis, timeoutMs, log);
  const store = new RedisDecisionStore({
    redis: client,
    prefix,
    standIn: limiter,
    failure: options.redis.failure,
    appClock: clock,
    decisionClock: options.redis.decisionClock,
    timeoutMs,
    log,
    metrics,
    denyCache,
  });
  // A usage push or claim, a snapshot check or a notice that Redis leaves unanswered tells the
  // decisions as much as a decision would: the health says so at once, and the probe starts.
  watchUnanswered(client, (error) => store.noteFailure(error));
  const sync = new PolicySync({
    publisher: client,
    subscriber,
    channel: `${prefix}:policy`,
    reload: options.reload,
    reset: (customerId) => store.forgetLocal(customerId),
    caughtUp: () => store.invalidate("all"),
    log,
  });
  policy.changed = (customerIds) => store.invalidate(customerIds);
  store.announceReset = (customerId) => sync.publishReset(customerId);
  decisions = store;
  return { decisions, metrics, redis: { client, sync, prefix, timeoutMs } };
}
