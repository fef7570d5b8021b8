import { ServiceTokenRefusals } from "@/lib/auth/service-token-refusals";
import { ServiceTokenUses } from "@/lib/auth/service-token-uses";
import { appClock } from "@/lib/clock";
import type { Env } from "@/lib/env";
import type { Clock } from "@/lib/limiter";
import { consoleLogger, type Logger } from "@/lib/log";
import { EdgePolicy } from "@/lib/policy/edge-policy";
import { createPolicyLimiter } from "@/lib/policy/policy-limiter";
import { PolicyStore } from "@/lib/policy/policy-store";
import { RedisSnapshots } from "@/lib/policy/redis-snapshot";
import { redactUrl } from "@/lib/redis";
import type { LiveTrafficPusher } from "@/lib/usage/live-traffic-pusher";
import { KEEP_FOR_NEXT_PUSH } from "@/lib/usage/redis-sink";
import { TrafficLog } from "@/lib/usage/traffic-log";
import { UsageTimers } from "@/lib/usage/usage-timers";
import {
  connectRedisLink,
  createDecisions,
  type DataPlaneRuntime,
  followNotices,
  type RedisOptions,
  redisOptionsOf,
  usageSettingsOf,
} from "./data-plane";
import { createRedisUsage, type UsageOptions, usageOptionsOf } from "./data-plane-usage";

/** EdgeRuntime is an edge's runtime: the data plane, its policy followed from Redis. */
export interface EdgeRuntime extends DataPlaneRuntime {
  role: "edge";
  /** edgePolicy loads and follows the control plane's snapshot. */
  edgePolicy: EdgePolicy;
  /** livePush sends the edge's live seconds to Redis, for the control plane's live view. */
  livePush: LiveTrafficPusher;
}

/** EdgeRuntimeOptions configure an edge: Redis is required (it holds the policy). */
export interface EdgeRuntimeOptions {
  redis: RedisOptions;
  clock?: Clock;
  log?: Logger;
  /**
   * checkMs is how often the snapshot's stamp is compared, in ms of `clock` (EDGE_CHECK_MS by
   * default; 0: never, tests call `edgePolicy.check`).
   */
  checkMs?: number;
  /** usage sets the rollups' flush interval; `timers: false` leaves pushing to the caller. */
  usage?: UsageOptions;
}

/**
 * createEdgeRuntime builds an edge: no database is opened (nothing here reaches db/). Its policy
 * starts empty (not `loaded`: decisions answer 503) and is read from the snapshot the control
 * plane keeps in Redis, at once, on every policy notice, after every reconnection, and on a
 * timer.
 *
 * The path of a decision's counts: `decide()` records into `usage`, in memory; its flush, every
 * USAGE_FLUSH_INTERVAL_MS, pushes them to Redis (counts Redis could not take wait in memory for
 * the next push), and the full app's claims write the fleet's closed minutes into SQLite.
 * `livePush` sends the edge's live seconds each second, for the dashboard's view of the fleet.
 */
export function createEdgeRuntime(options: EdgeRuntimeOptions): EdgeRuntime {
  const clock = options.clock ?? appClock;
  const log = options.log ?? consoleLogger;

  // Deciding: on Redis, with the in-memory limiter as its stand-in.
  const limiter = createPolicyLimiter(clock);
  const redis = connectRedisLink(options.redis, log);
  const { decisions, metrics } = createDecisions(
    { clock, log, limiter },
    { link: redis, options: options.redis },
  );
  log.info("Edge: deciding on the policy the control plane writes to Redis; no database.");

  // The policy, followed from the snapshot in Redis: a notice, a reconnection or the timer
  // makes the edge look; what changed goes from the decisions' deny cache.
  const policy = new PolicyStore({
    clock,
    changed: (customerIds) => decisions.invalidate(customerIds),
  });
  const { url, clusterNodes = [] } = options.redis;
  const edgePolicy = new EdgePolicy({
    snapshots: new RedisSnapshots(redis.client, redis.prefix),
    policy,
    log,
    clock,
    where: url !== undefined ? redactUrl(url) : clusterNodes.map(redactUrl).join(", "),
    checkMs: options.checkMs,
  });
  const sync = followNotices(redis, decisions, policy, () => edgePolicy.check(), log);
  // The command connection coming (back) up is the moment to look (the subscription has its
  // own); before it is open there is nothing to read.
  redis.client.on("ready", () => edgePolicy.check());

  // Counting: pushed to Redis, what Redis cannot take kept for the next push; the control plane
  // claims the fleet's minutes.
  const traffic = new TrafficLog(300);
  const { settings, startTimers } = usageOptionsOf(options.usage);
  const { usage, livePush } = createRedisUsage(
    redis,
    { clock, log, metrics, traffic, settings },
    KEEP_FOR_NEXT_PUSH,
  );
  metrics.watchUsage(usage);
  const usageTimers = new UsageTimers({
    log,
    flushIntervalMs: settings.flushIntervalMs,
    everyFlush: [{ what: "flush", run: () => usage.flush() }],
    everyMinute: [],
    everySecond: [{ what: "live push", run: () => livePush.push() }],
  });
  if (startTimers) usageTimers.start();

  const close = () => {
    usageTimers.stop();
    usage.halt();
    edgePolicy.close();
    sync.close();
    void decisions.close();
    limiter.close();
  };
  return {
    role: "edge",
    clock,
    log,
    policy,
    decisions,
    limiter,
    traffic,
    usage,
    usageSettings: settings,
    livePush,
    metrics,
    serviceTokenUsage: new ServiceTokenUses(),
    serviceTokenRefusals: new ServiceTokenRefusals((reason) => metrics.serviceTokenRefused(reason)),
    edgePolicy,
    async ready() {
      await Promise.all([decisions.ready(), sync.subscribed, edgePolicy.loaded()]);
    },
    async shutdown() {
      usageTimers.stop();
      await usage.stop();
      close();
    },
    close,
  };
}

/** edgeRuntimeOf builds an edge from the validated environment (which requires Redis for one). */
export function edgeRuntimeOf(env: Env): EdgeRuntime {
  const redis = redisOptionsOf(env);
  if (!redis) throw new TypeError("RATEKEEPER_ROLE=edge needs REDIS_URL or REDIS_CLUSTER_NODES");
  return createEdgeRuntime({
    redis,
    usage: usageSettingsOf(env),
    checkMs: env.SNAPSHOT_CHECK_INTERVAL_MS,
  });
}
