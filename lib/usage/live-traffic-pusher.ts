import type { Clock } from "@/lib/limiter";
import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import { FLEET, LIVE_LIFETIME_MS, liveMinuteKey, liveSecondKey, minuteOfSecond } from "./live-keys";
import { LIVE_SPAN } from "./redis-scripts";
import { SECOND_MS } from "./time";
import type { TrafficLog } from "./traffic-log";
import { withTimeout } from "./with-timeout";

/** LiveTrafficPusherOptions: where an instance's live seconds go, and what it reads them from. */
export interface LiveTrafficPusherOptions {
  redis: RedisClient;
  /** prefix starts every key ("rk" by default): the keys are "<prefix>:{live}:…". */
  prefix: string;
  /** traffic is this instance's traffic log, the seconds to push. */
  traffic: TrafficLog;
  /** timeoutMs bounds each round trip to Redis (a push waits 5 times as long). */
  timeoutMs: number;
  clock: Clock;
  log: Logger;
}

/**
 * LiveTrafficPusher shares an instance's live traffic with the fleet (RedisLiveTraffic reads it
 * back for the dashboard). About once a second it sends the whole seconds its traffic log holds
 * and has not pushed yet: HINCRBYs into one hash per second (fields
 * "<customer>:<operation>:a|d|t", allowed, denied and tokens taken, and "*:<operation>:a|d" for
 * the fleet; LIVE_SPAN keeps "<customer>:<operation>:f|l", the first and last allowed
 * decision's ms into the second) and one per minute for the per-customer totals
 * ("<customer>:a|d"), all in one pipeline, each key expiring after LIVE_LIFETIME_MS.
 */
export class LiveTrafficPusher {
  private readonly options: LiveTrafficPusherOptions;
  private pushedThrough: number | undefined;

  constructor(options: LiveTrafficPusherOptions) {
    this.options = options;
  }

  /**
   * push sends the whole seconds before the clock's now not yet pushed (the first push starts
   * with the previous second). Seconds that fail to go are not sent again: the view is live, not
   * a ledger.
   */
  async push(): Promise<void> {
    const { redis, prefix, traffic, timeoutMs, clock, log } = this.options;
    const last = Math.floor(clock.now() / SECOND_MS) - 1;
    const first = this.pushedThrough === undefined ? last : this.pushedThrough + 1;
    if (last < first || redis.status !== "ready") return;
    this.pushedThrough = last;
    const pipeline = redis.pipeline();
    const touched = new Set<string>();
    const spans = new Map<string, (string | number)[]>();
    traffic.forEachSecond(first, last, (customerId, operation, second, counts) => {
      const { allowed, denied, taken } = counts;
      const secondKey = liveSecondKey(prefix, second);
      const minuteKey = liveMinuteKey(prefix, minuteOfSecond(second));
      for (const who of [`${customerId}:${operation}`, `${FLEET}:${operation}`]) {
        if (allowed > 0) pipeline.hincrby(secondKey, `${who}:a`, allowed);
        if (denied > 0) pipeline.hincrby(secondKey, `${who}:d`, denied);
      }
      if (taken > 0) {
        pipeline.hincrby(secondKey, `${customerId}:${operation}:t`, taken);
        const span = spans.get(secondKey) ?? [];
        span.push(`${customerId}:${operation}`, counts.firstMs, counts.lastMs);
        spans.set(secondKey, span);
      }
      if (allowed > 0) pipeline.hincrby(minuteKey, `${customerId}:a`, allowed);
      if (denied > 0) pipeline.hincrby(minuteKey, `${customerId}:d`, denied);
      touched.add(secondKey);
      touched.add(minuteKey);
    });
    if (touched.size === 0) return;
    for (const [key, span] of spans) pipeline.eval(LIVE_SPAN, 1, key, ...span);
    for (const key of touched) pipeline.pexpire(key, LIVE_LIFETIME_MS);
    try {
      await withTimeout(pipeline.exec(), timeoutMs * 5, "Live traffic");
    } catch (error) {
      log.warn(`Live traffic push to Redis failed: ${String(error)}`);
    }
  }
}
