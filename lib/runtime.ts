import type Database from "better-sqlite3";
import { type Db, openDatabase } from "@/db/client";
import { seedDemo } from "@/db/seed";
import { OperatorAuth } from "@/lib/auth/operator";
import { ServiceTokenUsage } from "@/lib/auth/service-token-usage";
import { appClock } from "@/lib/clock";
import { getEnv } from "@/lib/env";
import { type Clock, Limiter, limit } from "@/lib/limiter";
import type { RedisClient } from "@/lib/limiter-redis";
import { consoleLogger, type Logger } from "@/lib/log";
import { createMetrics, type Metrics } from "@/lib/metrics";
import { generateApiKey } from "@/lib/policy/api-key";
import { type DecisionStore, MemoryDecisionStore } from "@/lib/policy/decision-store";
import { DEFAULT_DENY_CACHE_ENTRIES, DenyCache } from "@/lib/policy/deny-cache";
import { createPolicyLimiter, type RequestInput } from "@/lib/policy/policy-limiter";
import { PolicyStore } from "@/lib/policy/policy-store";
import { PolicySync } from "@/lib/policy/policy-sync";
import { type FailurePolicy, RedisDecisionStore } from "@/lib/policy/redis-decision-store";
import { connectRedis, connectRedisCluster } from "@/lib/redis";
import { TrafficLog } from "@/lib/usage/traffic-log";
import {
  DEFAULT_USAGE_SETTINGS,
  UsageService,
  type UsageSettings,
} from "@/lib/usage/usage-service";

/** Runtime is the process's one set of shared state: database, policy, limiter, counters. */
export interface Runtime {
  db: Db;
  sqlite: Database.Database;
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
  /** usage counts every decision into the rollups and keeps them (flush, fold, fleet view). */
  usage: UsageService;
  metrics: Metrics;
  auth: OperatorAuth;
  /** serviceTokenUsage holds service tokens' last use in memory and writes it now and then. */
  serviceTokenUsage: ServiceTokenUsage;
  /** loginLimiter slows password guessing: 10 failed attempts a minute per client address. */
  loginLimiter: Limiter<string, string>;
  /**
   * ready settles once decisions can use their store: at once in memory; with Redis, once it is
   * connected and this instance listens for policy changes. Until then Redis calls fail and
   * the failure policy applies.
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

/** RuntimeOptions configure a runtime; tests pass a temporary file and a fake clock. */
export interface RuntimeOptions {
  databasePath: string;
  clock?: Clock;
  adminPassword?: string;
  log?: Logger;
  /** redis, when set, keeps the buckets in Redis and shares policy changes between instances. */
  redis?: RedisOptions;
  /** usage sets the rollups (see lib/env.ts); `timers: false` leaves flushing to the caller. */
  usage?: Partial<UsageSettings> & { timers?: boolean };
  /**
   * tokenUseFlushIntervalMs is how often service tokens' last uses are looked at for writing
   * (10 s by default; each token is written at most once a minute). 0 starts no timer: tests
   * flush by hand.
   */
  tokenUseFlushIntervalMs?: number;
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

/**
 * createRuntime opens the database (migrating it), seeds a new one with the demo plans and a
 * demo customer whose key it prints once, and builds the policy and the shared limiter.
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const clock = options.clock ?? appClock;
  const log = options.log ?? consoleLogger;
  const { db, sqlite, created } = openDatabase(options.databasePath);
  if (created) {
    const demoKey = generateApiKey();
    db.transaction((tx) => seedDemo(tx, demoKey, clock.now()));
    log.info(`New database at ${options.databasePath}: seeded plans free, pro and enterprise.`);
    log.info(`Demo customer API key (shown once, stored hashed): ${demoKey.key}`);
  }
  const auth = new OperatorAuth(db, clock, options.adminPassword, log);
  const serviceTokenUsage = new ServiceTokenUsage(db, log);
  const tokenUseFlushIntervalMs = options.tokenUseFlushIntervalMs ?? 10_000;
  const tokenUseTimer =
    tokenUseFlushIntervalMs > 0
      ? setInterval(() => serviceTokenUsage.flush(clock.now()), tokenUseFlushIntervalMs)
      : undefined;
  tokenUseTimer?.unref();
  const policy = new PolicyStore(db, clock);
  const limiter = createPolicyLimiter(clock);
  const loginLimiter = new Limiter((ip: string) => ip, limit(10, "1m"), { clock });
  let decisions: DecisionStore = new MemoryDecisionStore(limiter);
  let denyCache: DenyCache | undefined;
  const metrics = createMetrics(
    () => limiter.size,
    () => decisions.status().redis !== "down",
    () => denyCache?.size ?? 0,
  );
  let sync: PolicySync | undefined;
  let usageRedis: { client: RedisClient; prefix: string; timeoutMs: number } | undefined;
  if (options.redis) {
    const { prefix = "rk", timeoutMs = 200 } = options.redis;
    const denyCacheEntries = options.redis.denyCache ?? DEFAULT_DENY_CACHE_ENTRIES;
    if (denyCacheEntries > 0) denyCache = new DenyCache(denyCacheEntries);
    const { client, subscriber } = connectStore(options.redis, timeoutMs, log);
    usageRedis = { client, prefix, timeoutMs };
    const store = new RedisDecisionStore({
      redis: client,
      prefix,
      standIn: limiter,
      failure: options.redis.failure,
      appClock: clock,
      decisionClock: options.redis.decisionClock,
      log,
      metrics,
      denyCache,
    });
    const policySync = new PolicySync({
      publisher: client,
      subscriber,
      channel: `${prefix}:policy`,
      reload: () => policy.refresh(),
      reset: (customerId) => store.forgetLocal(customerId),
      caughtUp: () => store.invalidate("all"),
      log,
    });
    policy.announce = () => policySync.publish();
    policy.changed = (customerIds) => store.invalidate(customerIds);
    store.announceReset = (customerId) => policySync.publishReset(customerId);
    decisions = store;
    sync = policySync;
  }
  const traffic = new TrafficLog(300);
  const { timers = true, ...settings } = options.usage ?? {};
  const usage = new UsageService({
    clock,
    log,
    metrics,
    traffic,
    db,
    redis: usageRedis,
    settings: { ...DEFAULT_USAGE_SETTINGS, ...settings },
  });
  if (timers) usage.start();
  const close = () => {
    usage.halt();
    clearInterval(tokenUseTimer);
    serviceTokenUsage.flush(clock.now(), true);
    sync?.close();
    void decisions.close();
    limiter.close();
    sqlite.close();
  };
  return {
    db,
    sqlite,
    clock,
    log,
    policy,
    decisions,
    limiter,
    traffic,
    usage,
    metrics,
    auth,
    serviceTokenUsage,
    loginLimiter,
    async ready() {
      await Promise.all([decisions.ready(), sync?.subscribed]);
    },
    async shutdown() {
      await usage.stop();
      close();
    },
    close,
  };
}

const globalRef = globalThis as typeof globalThis & { __ratekeeperRuntime?: Runtime };

/**
 * getRuntime returns the process's runtime, created from the environment on first use. It lives
 * on globalThis so dev reloads and separate module graphs share one limiter.
 */
export function getRuntime(): Runtime {
  if (!globalRef.__ratekeeperRuntime) {
    const env = getEnv();
    globalRef.__ratekeeperRuntime = createRuntime({
      databasePath: env.DATABASE_PATH,
      adminPassword: env.ADMIN_PASSWORD,
      redis:
        env.REDIS_URL || env.REDIS_CLUSTER_NODES
          ? {
              url: env.REDIS_URL,
              clusterNodes: env.REDIS_CLUSTER_NODES,
              prefix: env.REDIS_PREFIX,
              timeoutMs: env.REDIS_TIMEOUT_MS,
              failure: { read: env.REDIS_READS_ON_FAILURE, write: env.REDIS_WRITES_ON_FAILURE },
              denyCache: env.REDIS_DENY_CACHE === "on" ? env.REDIS_DENY_CACHE_SIZE : 0,
            }
          : undefined,
      usage: {
        flushIntervalMs: env.USAGE_FLUSH_INTERVAL_MS,
        minuteRetentionDays: env.USAGE_MINUTE_RETENTION_DAYS,
        hourRetentionDays: env.USAGE_HOUR_RETENTION_DAYS,
      },
    });
  }
  return globalRef.__ratekeeperRuntime;
}

/** setRuntime replaces the process's runtime (tests), closing none. */
export function setRuntime(runtime: Runtime | undefined): void {
  globalRef.__ratekeeperRuntime = runtime;
}
