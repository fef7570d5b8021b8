import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import type { Operation } from "@/lib/vocabulary";
import { FLEET, liveMinuteKey, liveSecondKey } from "./live-keys";
import type { LiveTraffic } from "./live-traffic";
import { MINUTE_MS, SECOND_MS } from "./time";
import type {
  TakenSecond,
  TrafficFilter,
  TrafficLog,
  TrafficPoint,
  TrafficTotals,
} from "./traffic-log";
import { withTimeout } from "./with-timeout";

/** pick keeps the totals of the given customers, zero for those without any. */
function pick(
  totals: Map<number, TrafficTotals>,
  customerIds: readonly number[],
): Map<number, TrafficTotals> {
  return new Map(customerIds.map((id) => [id, totals.get(id) ?? { allowed: 0, denied: 0 }]));
}

/**
 * RedisLiveTraffic is the fleet's live view, read from what every instance's LiveTrafficPusher
 * sends to Redis each second (see there for the keys and fields). Reading sums what every
 * instance pushed, so the view trails the present by about a second; while Redis cannot be
 * read, this instance's own traffic log (`local`) answers, marked "instance". `classes` are the
 * policy's operation classes at the time of a read: the series it reads.
 */
export class RedisLiveTraffic implements LiveTraffic {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly local: TrafficLog,
    private readonly timeoutMs: number,
    private readonly log: Logger,
    private readonly classes: () => Iterable<Operation>,
  ) {}

  async points(now: number, seconds: number, filter: TrafficFilter = {}) {
    const span = Math.min(Math.max(1, Math.floor(seconds)), this.local.windowSeconds);
    const last = Math.floor(now / SECOND_MS) - 1;
    const operations: Operation[] = filter.operation ? [filter.operation] : [...this.classes()];
    const who = filter.customerId === undefined ? FLEET : String(filter.customerId);
    const fields = operations.flatMap((op) => [`${who}:${op}:a`, `${who}:${op}:d`]);
    const pipeline = this.redis.pipeline();
    for (let sec = last - span + 1; sec <= last; sec++) {
      pipeline.hmget(liveSecondKey(this.prefix, sec), ...fields);
    }
    try {
      const replies = await withTimeout(pipeline.exec(), this.timeoutMs * 5, "Live traffic");
      const points: TrafficPoint[] = [];
      for (let i = 0; i < span; i++) {
        const [error, values] = replies?.[i] ?? [new Error("no reply"), null];
        if (error) throw error;
        const list = (values ?? []) as (string | null)[];
        let allowed = 0;
        let denied = 0;
        list.forEach((value, j) => {
          if (j % 2 === 0) allowed += Number(value ?? 0);
          else denied += Number(value ?? 0);
        });
        points.push({ t: (last - span + 1 + i) * SECOND_MS, allowed, denied });
      }
      return { points, scope: "fleet" as const };
    } catch (error) {
      this.log.warn(`Live traffic read from Redis failed (${String(error)}): this instance's own.`);
      return { points: this.local.points(now, seconds, filter), scope: "instance" as const };
    }
  }

  async totals(now: number, seconds: number) {
    const firstMinute = Math.floor((now - seconds * SECOND_MS) / MINUTE_MS);
    const lastMinute = Math.floor(now / MINUTE_MS);
    const pipeline = this.redis.pipeline();
    for (let m = firstMinute; m <= lastMinute; m++) pipeline.hgetall(liveMinuteKey(this.prefix, m));
    try {
      const replies = await withTimeout(pipeline.exec(), this.timeoutMs * 5, "Live traffic");
      const totals = new Map<number, TrafficTotals>();
      for (const [error, hash] of replies ?? []) {
        if (error) throw error;
        for (const [field, value] of Object.entries((hash ?? {}) as Record<string, string>)) {
          const [id, kind] = field.split(":");
          const customerId = Number(id);
          if (!Number.isSafeInteger(customerId)) continue;
          const total = totals.get(customerId) ?? { allowed: 0, denied: 0 };
          if (kind === "a") total.allowed += Number(value);
          else if (kind === "d") total.denied += Number(value);
          totals.set(customerId, total);
        }
      }
      return { totals, scope: "fleet" as const };
    } catch (error) {
      this.log.warn(`Live totals read from Redis failed (${String(error)}): this instance's own.`);
      return { totals: this.local.totals(now, seconds), scope: "instance" as const };
    }
  }

  async totalsOf(now: number, seconds: number, customerIds: readonly number[]) {
    const { totals, scope } = await this.totals(now, seconds);
    return { totals: pick(totals, customerIds), scope };
  }

  async takenSeconds(now: number, seconds: number, customerIds: readonly number[]) {
    const span = Math.min(Math.max(1, Math.floor(seconds)), this.local.windowSeconds);
    const last = Math.floor(now / SECOND_MS) - 1;
    const classes = [...this.classes()];
    const series = customerIds.flatMap((id) => classes.map((op) => `${id}:${op}`));
    const fields = series.flatMap((who) => TAKEN_FIELDS.map((f) => `${who}:${f}`));
    const result = new Map<string, TakenSecond[]>();
    if (series.length === 0) return { seconds: result, scope: "fleet" as const };
    const pipeline = this.redis.pipeline();
    for (let sec = last - span + 1; sec <= last; sec++) {
      pipeline.hmget(liveSecondKey(this.prefix, sec), ...fields);
    }
    try {
      const replies = await withTimeout(pipeline.exec(), this.timeoutMs * 5, "Live traffic");
      for (let i = 0; i < span; i++) {
        const [error, values] = replies?.[i] ?? [new Error("no reply"), null];
        if (error) throw error;
        const list = (values ?? []) as (string | null)[];
        series.forEach((who, s) => {
          const [a, d, t, f, l] = TAKEN_FIELDS.map((_, j) => Number(list[s * 5 + j] ?? 0));
          if ((a as number) + (d as number) === 0) return;
          const key = who.replace(":", "|");
          const seconds = result.get(key) ?? [];
          seconds.push({
            t: (last - span + 1 + i) * SECOND_MS,
            allowed: a as number,
            denied: d as number,
            taken: t as number,
            firstMs: f as number,
            lastMs: l as number,
          });
          result.set(key, seconds);
        });
      }
      return { seconds: result, scope: "fleet" as const };
    } catch (error) {
      this.log.warn(`Live traffic read from Redis failed (${String(error)}): this instance's own.`);
      return {
        seconds: this.local.takenSeconds(now, seconds, customerIds),
        scope: "instance" as const,
      };
    }
  }
}

/** TAKEN_FIELDS are a series' fields in a second's hash: allowed, denied, taken, first, last. */
const TAKEN_FIELDS = ["a", "d", "t", "f", "l"] as const;
