import type { ServiceTokenRefusals } from "@/lib/auth/service-token-refusals";
import type { ServiceTokenUses } from "@/lib/auth/service-token-uses";
import type { Env } from "@/lib/env";
import type { Clock, Limiter } from "@/lib/limiter";
import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import { createMetrics, type Metrics } from "@/lib/metrics";
import { type DecisionStore, MemoryDecisionStore } from "@/lib/policy/decision-store";
import { DEFAULT_DENY_CACHE_ENTRIES, DenyCache } from "@/lib/policy/deny-cache";
import type { RequestInput } from "@/lib/policy/policy-limiter";
import type { PolicyStore } from "@/lib/policy/policy-store";
import { PolicyNotices, PolicySync } from "@/lib/policy/policy-sync";
import { type FailurePolicy, RedisDecisionStore } from "@/lib/policy/redis-decision-store";
import { connectRedis, connectRedisCluster, watchUnanswered } from "@/lib/redis";
import type { LiveTrafficPusher } from "@/lib/usage/live-traffic-pusher";
import type { TrafficLog } from "@/lib/usage/traffic-log";
import type { UsageFlusher } from "@/lib/usage/usage-flusher";
import type { UsageSettings } from "@/lib/usage/usage-settings";
import type { Role } from "@/lib/vocabulary";

/**
 * DataPlaneRuntime is what every instance has, an edge as much as the full app: the policy, the
 * decisions and the counters. An edge's runtime is this and nothing more (no database).
 */
export interface DataPlaneRuntime {
  /** role is "full" (the app, the control plane with its database) or "edge" (decisions only). */
  role: Role;
  clock: Clock;
  log: Logger;
  policy: PolicyStore;
  /**
   * decisions decide on protected requests: in memory, or on Redis (REDIS_URL, or a Redis
   * Cluster with REDIS_CLUSTER_NODES).
   */
  decisions: DecisionStore;
  /** limiter is the in-memory limiter: the one that decides, or Redis's stand-in. */
  limiter: Limiter<RequestInput, string>;
  traffic: TrafficLog;
  /**
   * usage counts every decision into memory and flushes the counts to its one sink: SQLite (the
   * full app without Redis), or Redis for the fleet (an edge, and the full app with Redis, which
   * claims the fleet's minutes into SQLite, once).
   */
  usage: UsageFlusher;
  /** usageSettings are the usage rollups' settings in force. */
  usageSettings: UsageSettings;
  /**
   * livePush sends this instance's live seconds to Redis each second, for the fleet's live view
   * (with Redis; undefined without).
   */
  livePush: LiveTrafficPusher | undefined;
  metrics: Metrics;
  /**
   * serviceTokenUsage holds service tokens' last use in memory (the full app also writes it now
   * and then; an edge keeps it in memory).
   */
  serviceTokenUsage: ServiceTokenUses;
  /**
   * serviceTokenRefusals counts the decision calls refused for their service token (this
   * instance's, in memory): the metrics' total by reason, and the last hour per token.
   */
  serviceTokenRefusals: ServiceTokenRefusals;
  /**
   * ready settles once decisions can use their store: at once in memory; with Redis, once it is
   * connected and this instance listens for policy changes (and, on an edge, holds a policy).
   * Until then Redis calls fail and the failure policy applies.
   */
  ready(): Promise<void>;
  /**
   * shutdown flushes the usage counts still in memory (to SQLite, or to Redis for the fleet),
   * then closes: the server entry's stop on SIGTERM and SIGINT.
   */
  shutdown(): Promise<void>;
  /**
   * close stops everything at once; without Redis it first writes the usage counts still in
   * memory to SQLite (with Redis only `shutdown` can hand them over).
   */
  close(): void;
}

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

/**
 * RedisLink is a runtime's Redis: its connections, its key prefix, its call timeout, and this
 * instance's policy notices (published on the command connection).
 */
export interface RedisLink {
  /** client is the command connection (one server or a cluster). */
  client: RedisClient;
  /** subscriber is the connection that listens for the other instances' notices. */
  subscriber: RedisClient;
  /** notices tell the other instances (and edges) of a policy change or a reset. */
  notices: PolicyNotices;
  prefix: string;
  /** timeoutMs bounds each call (the usage relay times its own by it too). */
  timeoutMs: number;
}

/** connectRedisLink opens the Redis connections of `options` (one server, or a cluster). */
export function connectRedisLink(options: RedisOptions, log: Logger): RedisLink {
  const { url, clusterNodes, prefix = "rk", timeoutMs = 200 } = options;
  if ((url === undefined) === (clusterNodes === undefined)) {
    throw new TypeError("Redis options need exactly one of url and clusterNodes");
  }
  const { client, subscriber } =
    url !== undefined
      ? connectRedis(url, timeoutMs, log)
      : connectRedisCluster(clusterNodes ?? [], timeoutMs, log);
  const notices = new PolicyNotices({ publisher: client, channel: `${prefix}:policy`, log });
  return { client, subscriber, notices, prefix, timeoutMs };
}

/** Decisions are a runtime's decision store and the metrics that watch it. */
export interface Decisions {
  decisions: DecisionStore;
  metrics: Metrics;
}

/**
 * createDecisions builds the decisions of a runtime, full or edge alike: on the in-memory
 * `limiter` without Redis; with Redis, on Redis with the deny cache and `limiter` as the
 * stand-in, a reset announced to the other instances through the link's notices.
 */
export function createDecisions(
  options: { clock: Clock; log: Logger; limiter: Limiter<RequestInput, string> },
  redis: { link: RedisLink; options: RedisOptions } | undefined,
): Decisions {
  const { clock, log, limiter } = options;
  if (!redis) {
    const decisions = new MemoryDecisionStore(limiter);
    const metrics = createMetrics(
      () => limiter.size,
      () => true,
      () => 0,
    );
    return { decisions, metrics };
  }
  const { link } = redis;
  const denyCacheEntries = redis.options.denyCache ?? DEFAULT_DENY_CACHE_ENTRIES;
  const denyCache = denyCacheEntries > 0 ? new DenyCache(denyCacheEntries) : undefined;
  // The metrics read the store at each scrape; the store counts into the metrics.
  const metrics = createMetrics(
    () => limiter.size,
    () => (store.status().redis ?? "up") === "up",
    () => denyCache?.size ?? 0,
  );
  const store = new RedisDecisionStore({
    redis: link.client,
    prefix: link.prefix,
    standIn: limiter,
    failure: redis.options.failure,
    appClock: clock,
    decisionClock: redis.options.decisionClock,
    timeoutMs: link.timeoutMs,
    log,
    metrics,
    denyCache,
    announceReset: (customerId) => link.notices.publishReset(customerId),
  });
  // A usage push or claim, a snapshot check or a notice that Redis leaves unanswered tells the
  // decisions as much as a decision would: the health says so at once, and the probe starts.
  watchUnanswered(link.client, (error) => store.noteFailure(error));
  return { decisions: store, metrics };
}

/**
 * followNotices listens for the other instances' notices on the link: a policy change runs
 * `refresh` (the full app rereads SQLite; an edge rereads the snapshot in Redis); a reset drops
 * this instance's own state of the customer (its buckets of every class of `policy`'s snapshot),
 * and a (re)subscription, after its refresh, drops what the decisions remember (notices sent
 * meanwhile were lost).
 */
export function followNotices(
  link: RedisLink,
  decisions: DecisionStore,
  policy: PolicyStore,
  refresh: () => void,
  log: Logger,
): PolicySync {
  return new PolicySync({
    notices: link.notices,
    subscriber: link.subscriber,
    refresh,
    reset: (customerId) => decisions.forgetLocal(customerId, policy.snapshot.classes),
    caughtUp: () => decisions.invalidate("all"),
    log,
  });
}
