import type { Db } from "@/db/client";
import { type LiveTraffic, LocalLiveTraffic } from "@/lib/usage/live-traffic";
import type { LiveTrafficPusher } from "@/lib/usage/live-traffic-pusher";
import { QuotaCounts, type QuotaHolder } from "@/lib/usage/quota-counts";
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
  /** usageTimers run the flush (then the claim), the fold and the live push, once started. */
  usageTimers: UsageTimers;
}

/**
 * createFullUsage builds the full app's usage rollups. The write side: decisions count into a
 * UsageFlusher whose one sink is SQLite without Redis; with Redis it is a RedisUsageSink, whose
 * counts Redis could not be sent the SQLite sink writes now, and the LiveTrafficPusher shares
 * the live seconds. The control plane's side: with Redis, UsageClaims writes the fleet's closed
 * minutes into SQLite after each flush; UsageFolds folds and prunes once a minute, either way.
 * The read side: the dashboard's live view, RedisLiveTraffic (the fleet's, of the `classes` the
 * policy has at each read) or LocalLiveTraffic. Without Redis, the quota counts of `limiter` (the
 * policy limiter) are restored from SQLite at once and saved after each flush (QuotaCounts).
 */
export function createFullUsage(
  db: Db,
  redis: RedisLink | undefined,
  parts: UsageParts,
  classes: () => Iterable<Operation>,
  limiter: QuotaHolder,
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
  const quotaCounts = redis ? undefined : new QuotaCounts({ db, limiter, clock, log });
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
    everyMinute: [{ what: "fold", run: async () => folds.fold() }],
    everySecond: livePush ? [{ what: "live push", run: () => livePush.push() }] : [],
  });
  const live = redis
    ? new RedisLiveTraffic(redis.client, redis.prefix, traffic, redis.timeoutMs, log, classes)
    : new LocalLiveTraffic(traffic);
  return { usage, livePush, claims, folds, live, quotaCounts, usageTimers };
}
