import type { Clock } from "@/lib/limiter";
import type { Logger } from "@/lib/log";
import type { Metrics } from "@/lib/metrics";
import { LiveTrafficPusher } from "@/lib/usage/live-traffic-pusher";
import { RedisUsageRelay } from "@/lib/usage/redis-relay";
import { RedisUsageSink, type UnpushedCounts } from "@/lib/usage/redis-sink";
import { DAY_MS } from "@/lib/usage/time";
import type { TrafficLog } from "@/lib/usage/traffic-log";
import { UsageFlusher } from "@/lib/usage/usage-flusher";
import { DEFAULT_USAGE_SETTINGS, type UsageSettings } from "@/lib/usage/usage-settings";
import type { RedisLink } from "./data-plane";

/** UsageOptions set a runtime's usage rollups; `timers: false` leaves flushing to the caller. */
export type UsageOptions = Partial<UsageSettings> & { timers?: boolean };

/**
 * usageOptionsOf completes a runtime's usage options: the settings in force (the defaults where
 * none is given), and whether to start the timers.
 */
export function usageOptionsOf(options: UsageOptions = {}): {
  settings: UsageSettings;
  startTimers: boolean;
} {
  const { timers = true, ...settings } = options;
  return { settings: { ...DEFAULT_USAGE_SETTINGS, ...settings }, startTimers: timers };
}

/** UsageParts are what an instance's usage is built from: the process's own, and the settings. */
export interface UsageParts {
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  traffic: TrafficLog;
  settings: UsageSettings;
}

/**
 * createRedisUsage builds the usage of an instance with Redis, an edge's and the full app's
 * alike: a UsageFlusher whose flushes push the counts to Redis (a RedisUsageSink over a
 * RedisUsageRelay; counts Redis could not be sent go to `unpushed`), and the LiveTrafficPusher
 * of the fleet's live view.
 */
export function createRedisUsage(
  link: RedisLink,
  parts: UsageParts,
  unpushed: UnpushedCounts,
): { usage: UsageFlusher; livePush: LiveTrafficPusher } {
  const { clock, log, metrics, traffic, settings } = parts;
  const relay = new RedisUsageRelay({
    redis: link.client,
    prefix: link.prefix,
    timeoutMs: link.timeoutMs,
    log,
    minuteLifetimeMs: settings.minuteRetentionDays * DAY_MS,
  });
  const usage = new UsageFlusher({
    sink: new RedisUsageSink({ relay, unpushed, metrics, log }),
    clock,
    log,
  });
  const livePush = new LiveTrafficPusher({
    redis: link.client,
    prefix: link.prefix,
    traffic,
    timeoutMs: link.timeoutMs,
    clock,
    log,
  });
  return { usage, livePush };
}
