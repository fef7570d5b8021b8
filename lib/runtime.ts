import type Database from "better-sqlite3";
import { type Db, openDatabase } from "@/db/client";
import { seedDemo, seedPlans } from "@/db/seed";
import { OperatorAuth } from "@/lib/auth/operator";
import { ServiceTokenRefusals } from "@/lib/auth/service-token-refusals";
import { ServiceTokenUsage } from "@/lib/auth/service-token-usage";
import { writeBackupInWorker } from "@/lib/backup/backup-in-worker";
import {
  BackupSchedule,
  type BackupSettings,
  backupSettingsOf,
} from "@/lib/backup/backup-schedule";
import { appClock } from "@/lib/clock";
import { getEnv } from "@/lib/env";
import { type Clock, Limiter, limit } from "@/lib/limiter";
import { sleepWithTimer } from "@/lib/limiter/clock";
import { consoleLogger, type Logger } from "@/lib/log";
import type { Metrics } from "@/lib/metrics";
import { generateApiKey } from "@/lib/policy/api-key";
import type { DecisionStore } from "@/lib/policy/decision-store";
import { createPolicyLimiter, type RequestInput } from "@/lib/policy/policy-limiter";
import { PolicyStore } from "@/lib/policy/policy-store";
import { RedisSnapshots } from "@/lib/policy/redis-snapshot";
import { SnapshotWriter } from "@/lib/policy/snapshot-writer";
import { readPolicyState } from "@/lib/policy/sqlite-policy";
import {
  createDecisions,
  type RedisOptions,
  redisOptionsOf,
  usageSettingsOf,
} from "@/lib/runtime-decisions";
import { TrafficLog } from "@/lib/usage/traffic-log";
import {
  DEFAULT_USAGE_SETTINGS,
  UsageService,
  type UsageSettings,
} from "@/lib/usage/usage-service";
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
  /**
   * usage counts every decision into the rollups: written to SQLite (the full app without
   * Redis), or pushed to Redis for the fleet and claimed into SQLite by the full app, once.
   */
  usage: UsageService;
  metrics: Metrics;
  /**
   * serviceTokenUsage holds service tokens' last use in memory and writes it now and then (on
   * the full app; an edge keeps it in memory).
   */
  serviceTokenUsage: ServiceTokenUsage;
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

/** Runtime is the full app's one set of shared state: the data plane's, its database and operators. */
export interface Runtime extends DataPlaneRuntime {
  /**
   * demo is false with RATEKEEPER_DEMO=off (a production install): no demo customer is seeded
   * and the demo items routes (/api/v1/items) answer 404.
   */
  demo: boolean;
  db: Db;
  sqlite: Database.Database;
  auth: OperatorAuth;
  /** loginLimiter slows password guessing: 10 failed attempts a minute per client address. */
  loginLimiter: Limiter<string, string>;
  /**
   * snapshotWriter keeps the policy snapshot in Redis for the edges (with Redis; undefined
   * without): written at each edit and reconnection, checked every `snapshotCheckMs`.
   */
  snapshotWriter: SnapshotWriter | undefined;
  /** backups takes the scheduled backups (BACKUP_DIR); undefined when they are off. */
  backups: BackupSchedule | undefined;
}

/** RuntimeOptions configure a runtime; tests pass a temporary file and a fake clock. */
export interface RuntimeOptions {
  databasePath: string;
  clock?: Clock;
  adminPassword?: string;
  log?: Logger;
  /** redis, when set, keeps the buckets in Redis and shares policy changes between instances. */
  redis?: RedisOptions;
  /** demo: seed a new database with a demo customer and serve the demo items routes (true by default). */
  demo?: boolean;
  /** usage sets the rollups (see lib/env.ts); `timers: false` leaves flushing to the caller. */
  usage?: Partial<UsageSettings> & { timers?: boolean };
  /**
   * tokenUseFlushIntervalMs is how often service tokens' last uses are looked at for writing
   * (10 s by default; each token is written at most once a minute). 0 starts no timer: tests
   * flush by hand.
   */
  tokenUseFlushIntervalMs?: number;
  /**
   * snapshotCheckMs is how often, in ms of `clock`, the control plane checks that Redis holds its
   * policy snapshot and rewrites it when it is missing or older (SNAPSHOT_CHECK_INTERVAL_MS, 1 s, by
   * default; 0 starts no check: tests call the writer's `verify`). With Redis only.
   */
  snapshotCheckMs?: number;
  /**
   * backups, when set, backs the database up on a schedule into a directory, in a worker thread
   * (see lib/backup); off by default.
   */
  backups?: BackupSettings;
}

/**
 * createRuntime opens the database (migrating it), seeds a new one with the demo plans and (unless
 * `demo` is false) a demo customer whose key it prints once, and builds the policy and the shared
 * limiter. With Redis it is the control plane of any edges: it keeps the policy snapshot in Redis
 * for them.
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const clock = options.clock ?? appClock;
  const log = options.log ?? consoleLogger;
  const { db, sqlite, created } = openDatabase(options.databasePath);
  const demo = options.demo ?? true;
  if (created && demo) {
    const demoKey = generateApiKey();
    db.transaction((tx) => seedDemo(tx, demoKey, clock.now()));
    log.info(`New database at ${options.databasePath}: seeded plans free, pro and enterprise.`);
    log.info(`Demo customer API key (shown once, stored hashed): ${demoKey.key}`);
  } else if (created) {
    db.transaction((tx) => seedPlans(tx, clock.now()));
    log.info(
      `New database at ${options.databasePath}: seeded plans free, pro and enterprise; no demo customer (RATEKEEPER_DEMO=off).`,
    );
  }
  if (!demo) log.info("RATEKEEPER_DEMO=off: the demo items routes (/api/v1/items) answer 404.");
  const auth = new OperatorAuth(db, clock, options.adminPassword, log);
  const serviceTokenUsage = new ServiceTokenUsage(db, log);
  const tokenUseFlushIntervalMs = options.tokenUseFlushIntervalMs ?? 10_000;
  const tokenUseTimer =
    tokenUseFlushIntervalMs > 0
      ? setInterval(() => serviceTokenUsage.flush(clock.now()), tokenUseFlushIntervalMs)
      : undefined;
  tokenUseTimer?.unref();
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
      checkMs: options.snapshotCheckMs,
    });
    // Every committed edit: the snapshot goes to Redis for the edges, then the notice.
    policy.announce = () => snapshotWriter.request();
    // At start, and after every reconnection: a Redis restarted without persistence lost it.
    client.on("ready", () => snapshotWriter.request());
    writer = snapshotWriter;
  }
  const { decisions, metrics } = plane;
  const serviceTokenRefusals = new ServiceTokenRefusals((reason) =>
    metrics.serviceTokenRefused(reason),
  );
  const sync = plane.redis?.sync;
  const traffic = new TrafficLog(300);
  const { timers = true, ...settings } = options.usage ?? {};
  const usage = new UsageService({
    clock,
    log,
    metrics,
    traffic,
    db,
    redis: plane.redis,
    settings: { ...DEFAULT_USAGE_SETTINGS, ...settings },
  });
  if (timers) usage.start();
  const backups = options.backups
    ? new BackupSchedule({
        ...options.backups,
        clock: { now: () => clock.now(), sleep: sleepOf(clock) },
        log,
        write: (target, signal) =>
          writeBackupInWorker({ source: options.databasePath, target }, signal),
      })
    : undefined;
  if (backups) {
    metrics.watchBackups(backups);
    backups.start();
  }
  const close = () => {
    void backups?.stop();
    usage.halt();
    clearInterval(tokenUseTimer);
    serviceTokenUsage.flush(clock.now(), true);
    writer?.close();
    sync?.close();
    void decisions.close();
    limiter.close();
    sqlite.close();
  };
  return {
    role: "full",
    demo,
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
    serviceTokenRefusals,
    loginLimiter,
    snapshotWriter: writer,
    backups,
    async ready() {
      await Promise.all([decisions.ready(), sync?.subscribed]);
    },
    async shutdown() {
      await backups?.stop();
      await usage.stop();
      close();
    },
    close,
  };
}

/** sleepOf is how a clock lets time pass: its own sleep (a fake clock's), or a real timer. */
function sleepOf(clock: Clock): (ms: number, signal?: AbortSignal) => Promise<void> {
  return clock.sleep ? clock.sleep.bind(clock) : sleepWithTimer;
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
      usage: usageSettingsOf(env),
      demo: env.RATEKEEPER_DEMO === "on",
      snapshotCheckMs: env.SNAPSHOT_CHECK_INTERVAL_MS,
      backups: backupSettingsOf(env),
    });
  }
  return globalRef.__ratekeeperRuntime;
}

/** setRuntime replaces the process's runtime (tests), closing none. */
export function setRuntime(runtime: Runtime | undefined): void {
  globalRef.__ratekeeperRuntime = runtime;
}
