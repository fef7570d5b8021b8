import type Database from "better-sqlite3";
import { type Db, openDatabase } from "@/db/client";
import { seedDemo } from "@/db/seed";
import { OperatorAuth } from "@/lib/auth/operator";
import { ServiceTokenUsage } from "@/lib/auth/service-token-usage";
import { appClock } from "@/lib/clock";
import { getEnv } from "@/lib/env";
import { type Clock, Limiter, limit } from "@/lib/limiter";
import { consoleLogger, type Logger } from "@/lib/log";
import type { Metrics } from "@/lib/metrics";
import { generateApiKey } from "@/lib/policy/api-key";
import type { DecisionStore } from "@/lib/policy/decision-store";
import { createPolicyLimiter, type RequestInput } from "@/lib/policy/policy-limiter";
import { PolicyStore } from "@/lib/policy/policy-store";
import { RedisSnapshots } from "@/lib/policy/redis-snapshot";
import { SnapshotWriter } from "@/lib/policy/snapshot-writer";
import { readPolicyState } from "@/lib/policy/sqlite-policy";
import { TrafficLog } from "@/lib/policy/traffic";
import { createDecisions, type RedisOptions, redisOptionsOf } from "@/lib/runtime-decisions";
import type { Role } from "@/lib/vocabulary";

export type { RedisOptions } from "@/lib/runtime-decisions";

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
  metrics: Metrics;
  /**
   * serviceTokenUsage holds service tokens' last use in memory and writes it now and then (on
   * the control plane; an edge keeps it in memory).
   */
  serviceTokenUsage: ServiceTokenUsage;
  /**
   * ready settles once decisions can use their store: at once in memory; with Redis, once it is
   * connected and this instance listens for policy changes (and, on an edge, holds a policy).
   * Until then Redis calls fail and the failure policy applies.
   */
  ready(): Promise<void>;
  close(): void;
}

/** Runtime is the full app's one set of shared state: the data plane's, its database and operators. */
export interface Runtime extends DataPlaneRuntime {
  db: Db;
  sqlite: Database.Database;
  auth: OperatorAuth;
  /** loginLimiter slows password guessing: 10 failed attempts a minute per client address. */
  loginLimiter: Limiter<string, string>;
}

/** RuntimeOptions configure a runtime; tests pass a temporary file and a fake clock. */
export interface RuntimeOptions {
  databasePath: string;
  clock?: Clock;
  adminPassword?: string;
  log?: Logger;
  /** redis, when set, keeps the buckets in Redis and shares policy changes between instances. */
  redis?: RedisOptions;
  /**
   * usageFlushIntervalMs is how often service tokens' last uses are looked at for writing
   * (10 s by default; each token is written at most once a minute). 0 starts no timer: tests
   * flush by hand.
   */
  usageFlushIntervalMs?: number;
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
  const usageFlushIntervalMs = options.usageFlushIntervalMs ?? 10_000;
  const usageTimer =
    usageFlushIntervalMs > 0
      ? setInterval(() => serviceTokenUsage.flush(clock.now()), usageFlushIntervalMs)
      : undefined;
  usageTimer?.unref();
  const policy = new PolicyStore(clock, () => readPolicyState(db));
  const limiter = createPolicyLimiter(clock);
  const loginLimiter = new Limiter((ip: string) => ip, limit(10, "1m"), { clock });
  const plane = createDecisions({
    clock,
    log,
    policy,
    limiter,
    redis: options.redis,
    reload: () => policy.refresh(),
  });
  let writer: SnapshotWriter | undefined;
  if (plane.redis) {
    const { client, sync, prefix } = plane.redis;
    const snapshotWriter = new SnapshotWriter({
      snapshots: new RedisSnapshots(client, prefix),
      state: () => policy.state,
      refresh: () => policy.refresh(),
      publish: () => sync.publish(),
      clock,
      log,
    });
    // Every committed edit: the snapshot goes to Redis for the edges, then the notice.
    policy.announce = () => snapshotWriter.request();
    // At start, and after every reconnection: a Redis restarted without persistence lost it.
    client.on("ready", () => snapshotWriter.request());
    writer = snapshotWriter;
  }
  const { decisions, metrics } = plane;
  const sync = plane.redis?.sync;
  return {
    role: "full",
    db,
    sqlite,
    clock,
    log,
    policy,
    decisions,
    limiter,
    traffic: new TrafficLog(300),
    metrics,
    auth,
    serviceTokenUsage,
    loginLimiter,
    async ready() {
      await Promise.all([decisions.ready(), sync?.subscribed]);
    },
    close() {
      clearInterval(usageTimer);
      serviceTokenUsage.flush(clock.now(), true);
      writer?.close();
      sync?.close();
      void decisions.close();
      limiter.close();
      sqlite.close();
    },
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
      redis: redisOptionsOf(env),
    });
  }
  return globalRef.__ratekeeperRuntime;
}

/** setRuntime replaces the process's runtime (tests), closing none. */
export function setRuntime(runtime: Runtime | undefined): void {
  globalRef.__ratekeeperRuntime = runtime;
}
