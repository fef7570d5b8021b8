import type Database from "better-sqlite3";
import { type Db, openDatabase } from "@/db/client";
import { seedDemo, seedPlans } from "@/db/seed";
import { OperatorAuth } from "@/lib/auth/operator";
import { ServiceTokenRefusals } from "@/lib/auth/service-token-refusals";
import { ServiceTokenUsage } from "@/lib/auth/service-token-usage";
import { writeBackupInWorker } from "@/lib/backup/backup-in-worker";
import { BackupSchedule, type BackupSettings } from "@/lib/backup/backup-schedule";
import { appClock } from "@/lib/clock";
import { type Clock, Limiter, limit } from "@/lib/limiter";
import { sleepWithTimer } from "@/lib/limiter/clock";
import { consoleLogger, type Logger } from "@/lib/log";
import { generateApiKey } from "@/lib/policy/api-key";
import { createPolicyLimiter } from "@/lib/policy/policy-limiter";
import { DatabasePolicy } from "@/lib/policy/policy-store";
import { RedisSnapshots } from "@/lib/policy/redis-snapshot";
import { SnapshotWriter } from "@/lib/policy/snapshot-writer";
import { readPolicyState } from "@/lib/policy/sqlite-policy";
import type { LiveTraffic } from "@/lib/usage/live-traffic";
import type { QuotaCounts } from "@/lib/usage/quota-counts";
import type { QuotaRestorer } from "@/lib/usage/quota-restorer";
import { TrafficLog } from "@/lib/usage/traffic-log";
import type { UsageClaims } from "@/lib/usage/usage-claims";
import type { UsageFolds } from "@/lib/usage/usage-folds";
import {
  connectRedisLink,
  createDecisions,
  type DataPlaneRuntime,
  followNotices,
  type RedisOptions,
} from "./data-plane";
import { type UsageOptions, usageOptionsOf } from "./data-plane-usage";
import { createFullUsage } from "./full-usage";
import { quotasInForce } from "./quotas-in-force";

/** Runtime is the full app's one set of shared state: the data plane's, its database and operators. */
export interface Runtime extends DataPlaneRuntime {
  role: "full";
  /** policy is read from SQLite: `applyEdit` after this instance's edits, `refresh` after others'. */
  policy: DatabasePolicy;
  /**
   * claims writes the fleet's closed minutes from Redis into SQLite after each flush (with Redis;
   * undefined without: the flushes write SQLite themselves).
   */
  claims: UsageClaims | undefined;
  /** folds folds the rollups' minutes into hours and days and prunes them, once a minute. */
  folds: UsageFolds;
  /**
   * quotaCounts keep the limiter's quota counts in SQLite without Redis (saved after each flush
   * and at close; undefined with Redis, which holds them).
   */
  quotaCounts: QuotaCounts | undefined;
  /**
   * quotaRestorer raises Redis's quota counts to what the rollups say was taken this period
   * (with Redis; undefined without): once a minute, at each connection, and when the snapshot
   * check finds that Redis lost its data.
   */
  quotaRestorer: QuotaRestorer | undefined;
  /** live is the dashboard's live traffic view: the fleet's through Redis, or this instance's. */
  live: LiveTraffic;
  /** serviceTokenUsage also writes the tokens' last uses to SQLite now and then. */
  serviceTokenUsage: ServiceTokenUsage;
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
  usage?: UsageOptions;
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
 *
 * The path of a plan edit, top to bottom: an admin service commits it to SQLite with its audit
 * entry and calls `policy.applyEdit()`, which rereads SQLite (the customers whose policy changed
 * go from the decisions' deny cache) and announces it. Without Redis that is all. With Redis the
 * announcement asks the snapshot writer to write the snapshot to Redis and then publish the
 * notice: every other full instance hears it (`followNotices`) and refreshes from SQLite, every
 * edge hears it and rereads the snapshot from Redis. The writer also writes at start, after each
 * reconnection and whenever its check finds Redis's snapshot missing or older.
 *
 * The path of a decision's counts (built by createFullUsage): `decide()` records into `usage`, in
 * memory; its flush, every USAGE_FLUSH_INTERVAL_MS, writes them to SQLite, or with Redis pushes
 * them there (counts Redis could not be sent go to SQLite at once) and `claims` then writes the
 * fleet's closed minutes (every instance's and edge's) into SQLite, once. `folds` folds and
 * prunes once a minute. The dashboard reads the rollups from SQLite, and the last five minutes
 * from `live`: this instance's traffic log, or with Redis what every instance's `livePush` sent.
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const clock = options.clock ?? appClock;
  const log = options.log ?? consoleLogger;
  const demo = options.demo ?? true;
  const { db, sqlite } = openSeededDatabase(options.databasePath, demo, clock, log);
  if (!demo) log.info("RATEKEEPER_DEMO=off: the demo items routes (/api/v1/items) answer 404.");
  const auth = new OperatorAuth(db, clock, options.adminPassword, log);
  const loginLimiter = new Limiter((ip: string) => ip, limit(10, "1m"), { clock });

  // Deciding: the in-memory limiter (Redis's stand-in with Redis), the decision store, the metrics.
  const limiter = createPolicyLimiter(clock);
  const redis = options.redis ? connectRedisLink(options.redis, log) : undefined;
  const { decisions, metrics } = createDecisions(
    { clock, log, limiter },
    redis && options.redis ? { link: redis, options: options.redis } : undefined,
  );

  // The policy, read from SQLite; an edit reaches the edges through the snapshot writer.
  const policy = new DatabasePolicy({
    clock,
    read: () => readPolicyState(db, clock.now()),
    changed: (customerIds) => decisions.invalidate(customerIds),
    // The writer (below, with Redis) reads this policy: it is the one to tell of an edit.
    announce: () => snapshotWriter?.request(),
  });
  const snapshotWriter = redis
    ? new SnapshotWriter({
        snapshots: new RedisSnapshots(redis.client, redis.prefix),
        state: () => policy.state,
        refresh: () => policy.refresh(),
        publish: () => redis.notices.publish(),
        clock,
        log,
        checkMs: options.snapshotCheckMs,
        lost: () => restoreQuotas(),
      })
    : undefined;
  // A failed restore is retried by the minute's; the connection's errors say why.
  const restoreQuotas = () => void quotaRestorer?.restore().catch(() => {});
  // The other instances' edits and resets: SQLite reread, what the decisions remember dropped.
  const sync = redis
    ? followNotices(redis, decisions, policy, () => policy.refresh(), log)
    : undefined;
  // At start, and after every reconnection: a Redis restarted without persistence lost it, and
  // its quota counts, which the rollups bring back up (below).
  redis?.client.on("ready", () => {
    snapshotWriter?.request();
    restoreQuotas();
  });

  // Counting: service tokens' uses and refusals, the live traffic, the usage rollups.
  const serviceTokenUsage = new ServiceTokenUsage(db, log);
  const tokenUseFlushIntervalMs = options.tokenUseFlushIntervalMs ?? 10_000;
  const tokenUseTimer =
    tokenUseFlushIntervalMs > 0
      ? setInterval(() => serviceTokenUsage.flush(clock.now()), tokenUseFlushIntervalMs)
      : undefined;
  tokenUseTimer?.unref();
  const serviceTokenRefusals = new ServiceTokenRefusals((reason) =>
    metrics.serviceTokenRefused(reason),
  );
  const traffic = new TrafficLog(300);
  const { settings, startTimers } = usageOptionsOf(options.usage);
  const parts = { clock, log, metrics, traffic, settings };
  const quotas = {
    limiter,
    inForce: (now: number) => quotasInForce(policy.snapshot, now),
    expire: options.redis?.decisionClock === undefined,
  };
  const { usage, livePush, claims, folds, live, quotaCounts, quotaRestorer, usageTimers } =
    createFullUsage(db, redis, parts, () => policy.snapshot.classes, quotas);
  if (startTimers) usageTimers.start();

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
    usageTimers.stop();
    usage.halt();
    quotaCounts?.save();
    clearInterval(tokenUseTimer);
    serviceTokenUsage.flush(clock.now(), true);
    snapshotWriter?.close();
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
    usageSettings: settings,
    livePush,
    claims,
    folds,
    quotaCounts,
    quotaRestorer,
    live,
    metrics,
    auth,
    serviceTokenUsage,
    serviceTokenRefusals,
    loginLimiter,
    snapshotWriter,
    backups,
    async ready() {
      await Promise.all([decisions.ready(), sync?.subscribed]);
    },
    async shutdown() {
      await backups?.stop();
      usageTimers.stop();
      await usage.stop();
      close();
    },
    close,
  };
}

/**
 * openSeededDatabase opens the database (migrating it) and seeds a new one: the plans free, pro
 * and enterprise, and with `demo` a demo customer whose API key it prints once.
 */
function openSeededDatabase(databasePath: string, demo: boolean, clock: Clock, log: Logger) {
  const { db, sqlite, created } = openDatabase(databasePath);
  if (created && demo) {
    const demoKey = generateApiKey();
    db.transaction((tx) => seedDemo(tx, demoKey, clock.now()));
    log.info(`New database at ${databasePath}: seeded plans free, pro and enterprise.`);
    log.info(`Demo customer API key (shown once, stored hashed): ${demoKey.key}`);
  } else if (created) {
    db.transaction((tx) => seedPlans(tx, clock.now()));
    log.info(
      `New database at ${databasePath}: seeded plans free, pro and enterprise; no demo customer (RATEKEEPER_DEMO=off).`,
    );
  }
  return { db, sqlite };
}

/** sleepOf is how a clock lets time pass: its own sleep (a fake clock's), or a real timer. */
function sleepOf(clock: Clock): (ms: number, signal?: AbortSignal) => Promise<void> {
  return clock.sleep ? clock.sleep.bind(clock) : sleepWithTimer;
}
