import type { Db } from "@/db/client";
import { type LiveTraffic, LocalLiveTraffic } from "@/lib/usage/live-traffic";
import type { LiveTrafficPusher } from "@/lib/usage/live-traffic-pusher";
import { QuotaCounts, type QuotaHolder } from "@/lib/usage/quota-counts";
import { type QuotaInForce, QuotaRestorer } from "@/lib/usage/quota-restorer";
import { RedisUsageClaimer } from "@/lib/usage/redis-claimer";
import { RedisLiveTraffic } from "@/lib/usage/redis-live-traffic";
import { SqliteUsageSink } from "@/lib/usage/sqlite-sink";
import { UsageClaims } from "@/lib/usage/usage-claims";
import { UsageFlusher } from "@/lib/usage/usage-flusher";
import { UsageFolds } from "@/lib/usage/usage-folds";
import { type UsageStep, UsageTimers } from "@/lib/usage/usage-timers";
import type { Operation } from "@/lib/vocabulary";
import type { RedisLink } from "./data-plane";
import { createRedisUsage, type UsageParts } from "./data-plane-usage";

/** FullUsage is the full app's usage, each part in its one mode, as createFullUsage chose it. */
export interface FullUsage {
  /** usage counts the decisions and flushes them to SQLite, or with Redis to Redis. */
  usage: UsageFlusher;
  /** livePush sends this instance's live seconds to Redis (with Redis; undefined without). */
  livePush: LiveTrafficPusher | undefined;
  /** claims writes the fleet's closed minutes into SQLite (with Redis; undefined without). */
  claims: UsageClaims | undefined;
  /** folds folds minutes into hours and days and prunes them. */
  folds: UsageFolds;
  /** live is the dashboard's live view: the fleet's through Redis, or this instance's. */
  live: LiveTraffic;
  /**
   * quotaCounts keep the in-memory limiter's quota counts in SQLite (without Redis; undefined
   * with it, where Redis holds them): restored here, before the first decision, saved after
   * each flush and at a graceful close.
   */
  quotaCounts: QuotaCounts | undefined;
  /**
   * quotaRestorer raises Redis's quota counts to what the rollups say was taken this period
   * (with Redis; undefined without): once a minute, and when Redis lost its data.
   */
  quotaRestorer: QuotaRestorer | undefined;
  /** usageTimers run the flush (then the claim), the fold and the live push, once started. */
  usageTimers: UsageTimers;
}

/** FullUsageQuotas is what the usage side keeps quota counts durable with. */
export interface FullUsageQuotas {
  /** limiter is the policy limiter (without Redis, the one that decides). */
  limiter: QuotaHolder;
  /** inForce lists the enforced quotas of every customer at `now` (ms), from the policy. */
  inForce: (now: number) => Iterable<QuotaInForce>;
  /** expire: Redis keys written anew expire (false when decisions run on an injected clock). */
  expire: boolean;
}

/**
 * createFullUsage builds the full app's usage rollups. The write side: decisions count into a
 * UsageFlusher whose one sink is SQLite without Redis; with Redis it is a RedisUsageSink, whose
 * counts Redis could not be sent the SQLite sink writes now, and the LiveTrafficPusher shares
 * the live seconds. The control plane's side: with Redis, UsageClaims writes the fleet's closed
 * minutes into SQLite after each flush; UsageFolds folds and prunes once a minute, either way.
 * The read side: the dashboard's live view, RedisLiveTraffic (the fleet's, of the `classes` the
 * policy has at each read) or LocalLiveTraffic.
 *
 * Quotas: without Redis, the counts of `quotas.limiter` (the policy limiter) are restored from
 * SQLite at once and saved after each flush (QuotaCounts); with Redis, once a minute the counts
 * of `quotas.inForce` in Redis are raised to the rollups' (QuotaRestorer).
 */
export function createFullUsage(
  db: Db,
  redis: RedisLink | undefined,
  parts: UsageParts,
  classes: () => Iterable<Operation>,
  quotas: FullUsageQuotas,
): FullUsage {
  const { clock, log, metrics, traffic, settings } = parts;
  const sqlite = new SqliteUsageSink({ db, metrics, log });
  const { usage, livePush } = redis
    ? createRedisUsage(redis, parts, sqlite)
    : { usage: new UsageFlusher({ sink: sqlite, clock, log }), livePush: undefined };
  metrics.watchUsage(usage);
  const claims = redis
    ? new UsageClaims({
        claimer: new RedisUsageClaimer({
          redis: redis.client,
          prefix: redis.prefix,
          timeoutMs: redis.timeoutMs,
          log,
        }),
        db,
        clock,
        metrics,
        flushIntervalMs: settings.flushIntervalMs,
      })
    : undefined;
  const folds = new UsageFolds({ db, clock, settings });
  const quotaCounts = redis
    ? undefined
    : new QuotaCounts({ db, limiter: quotas.limiter, clock, log });
  const quotaRestorer = redis
    ? new QuotaRestorer({
        db,
        redis: redis.client,
        prefix: redis.prefix,
        clock,
        log,
        settings,
        quotas: quotas.inForce,
        expire: quotas.expire,
      })
    : undefined;
  // Before the first decision: the runtime that decides is not built yet.
  quotaCounts?.restore();
  const flush: UsageStep = { what: "flush", run: () => usage.flush() };
  const everyFlush: UsageStep[] = claims
    ? [flush, { what: "claim", run: () => claims.claim() }]
    : [flush, { what: "quota save", run: async () => quotaCounts?.save() }];
  const usageTimers = new UsageTimers({
    log,
    flushIntervalMs: settings.flushIntervalMs,
    everyFlush,
    everyMinute: quotaRestorer
      ? [
          { what: "fold", run: async () => folds.fold() },
          { what: "quota restore", run: () => quotaRestorer.restore() },
        ]
      : [{ what: "fold", run: async () => folds.fold() }],
    everySecond: livePush ? [{ what: "live push", run: () => livePush.push() }] : [],
  });
  const live = redis
    ? new RedisLiveTraffic(redis.client, redis.prefix, traffic, redis.timeoutMs, log, classes)
    : new LocalLiveTraffic(traffic);
  return { usage, livePush, claims, folds, live, quotaCounts, quotaRestorer, usageTimers };
}
