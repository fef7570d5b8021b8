import type { RedisClient } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import { OPERATIONS, type Operation } from "@/lib/vocabulary";
import { LIVE_SPAN } from "./redis-scripts";
import { MINUTE_MS, SECOND_MS } from "./time";
import type {
  TakenSecond,
  TrafficFilter,
  TrafficLog,
  TrafficPoint,
  TrafficTotals,
} from "./traffic-log";
import { withTimeout } from "./with-timeout";

/** LiveScope says whose decisions a live view counts: the whole fleet's, or this instance's. */
export type LiveScope = "fleet" | "instance";

/** LiveTraffic is the per-second live view the overview and the inspector poll. */
export interface LiveTraffic {
  /** points returns one point per second for the last `seconds` seconds, oldest first. */
  points(
    now: number,
    seconds: number,
    filter?: TrafficFilter,
  ): Promise<{ points: TrafficPoint[]; scope: LiveScope }>;
  /** totals returns each customer's allowed and denied decisions over the last `seconds`. */
  totals(
    now: number,
    seconds: number,
  ): Promise<{ totals: Map<number, TrafficTotals>; scope: LiveScope }>;
  /** totalsOf returns `totals` for the given customers only, zero for those without traffic. */
  totalsOf(
    now: number,
    seconds: number,
    customerIds: readonly number[],
  ): Promise<{ totals: Map<number, TrafficTotals>; scope: LiveScope }>;
  /**
   * takenSeconds returns the given customers' seconds with decisions over the last `seconds`
   * (tokens taken, and when in each second), oldest first, keyed "<customerId>|<operation>".
   */
  takenSeconds(
    now: number,
    seconds: number,
    customerIds: readonly number[],
  ): Promise<{ seconds: Map<string, TakenSecond[]>; scope: LiveScope }>;
}

/** pick keeps the totals of the given customers, zero for those without any. */
function pick(
  totals: Map<number, TrafficTotals>,
  customerIds: readonly number[],
): Map<number, TrafficTotals> {
  return new Map(customerIds.map((id) => [id, totals.get(id) ?? { allowed: 0, denied: 0 }]));
}

/** LocalLiveTraffic is this instance's traffic log: the whole picture without Redis. */
export class LocalLiveTraffic implements LiveTraffic {
  constructor(private readonly log: TrafficLog) {}

  async points(now: number, seconds: number, filter: TrafficFilter = {}) {
    return { points: this.log.points(now, seconds, filter), scope: "instance" as const };
  }

  async totals(now: number, seconds: number) {
    return { totals: this.log.totals(now, seconds), scope: "instance" as const };
  }

  async totalsOf(now: number, seconds: number, customerIds: readonly number[]) {
    return { totals: this.log.totalsOf(now, seconds, customerIds), scope: "instance" as const };
  }

  async takenSeconds(now: number, seconds: number, customerIds: readonly number[]) {
    return {
      seconds: this.log.takenSeconds(now, seconds, customerIds),
      scope: "instance" as const,
    };
  }
}

/** LIVE_LIFETIME_MS: the live keys expire after 15 minutes (the view spans 5). */
const LIVE_LIFETIME_MS = 15 * MINUTE_MS;
const FLEET = "*";

/**
 * RedisLiveTraffic is the fleet's live view. Every instance pushes, about once a second, the
 * whole seconds its traffic log holds and has not pushed yet: HINCRBYs into one hash per second
 * (keys "<prefix>:{live}:…", one hash tag, so a pipeline stays in one slot of a Redis Cluster)
 * (fields "<customer>:<operation>:a|d|t", allowed, denied and tokens taken, and
 * "*:<operation>:a|d" for the fleet; LIVE_SPAN keeps "<customer>:<operation>:f|l", the first and
 * last allowed decision's ms into the second) and one per minute for the per-customer totals
 * ("<customer>:a|d"), all in one pipeline. Reading sums what every instance pushed, so the view
 * trails the present by about a second; while Redis cannot be read, this instance's own log
 * answers, marked "instance".
 */
export class RedisLiveTraffic implements LiveTraffic {
  private pushedThrough: number | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly local: TrafficLog,
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  /**
   * push sends the whole seconds before `now` (ms) not yet pushed (the first push starts with the
   * previous second). Seconds that fail to go are not sent again: the view is live, not a ledger.
   */
  async push(now: number): Promise<void> {
    const last = Math.floor(now / SECOND_MS) - 1;
    const first = this.pushedThrough === undefined ? last : this.pushedThrough + 1;
    if (last < first || this.redis.status !== "ready") return;
    this.pushedThrough = last;
    const pipeline = this.redis.pipeline();
    const touched = new Set<string>();
    const spans = new Map<string, (string | number)[]>();
    this.local.forEachSecond(first, last, (customerId, operation, second, counts) => {
      const { allowed, denied, taken } = counts;
      const secondKey = `${this.prefix}:{live}:s:${second}`;
      const minuteKey = `${this.prefix}:{live}:m:${Math.floor((second * SECOND_MS) / MINUTE_MS)}`;
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
      await withTimeout(pipeline.exec(), this.timeoutMs * 5, "Live traffic");
    } catch (error) {
      this.log.warn(`Live traffic push to Redis failed: ${String(error)}`);
    }
  }

  async points(now: number, seconds: number, filter: TrafficFilter = {}) {
    const span = Math.min(Math.max(1, Math.floor(seconds)), this.local.windowSeconds);
    const last = Math.floor(now / SECOND_MS) - 1;
    const operations: Operation[] = filter.operation ? [filter.operation] : ["read", "write"];
    const who = filter.customerId === undefined ? FLEET : String(filter.customerId);
    const fields = operations.flatMap((op) => [`${who}:${op}:a`, `${who}:${op}:d`]);
    const pipeline = this.redis.pipeline();
    for (let sec = last - span + 1; sec <= last; sec++) {
      pipeline.hmget(`${this.prefix}:{live}:s:${sec}`, ...fields);
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
    for (let m = firstMinute; m <= lastMinute; m++)
      pipeline.hgetall(`${this.prefix}:{live}:m:${m}`);
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
    const series = customerIds.flatMap((id) => OPERATIONS.map((op) => `${id}:${op}`));
    const fields = series.flatMap((who) => TAKEN_FIELDS.map((f) => `${who}:${f}`));
    const result = new Map<string, TakenSecond[]>();
    if (series.length === 0) return { seconds: result, scope: "fleet" as const };
    const pipeline = this.redis.pipeline();
    for (let sec = last - span + 1; sec <= last; sec++) {
      pipeline.hmget(`${this.prefix}:{live}:s:${sec}`, ...fields);
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
