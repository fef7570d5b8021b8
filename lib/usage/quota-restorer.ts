import type { Db } from "@/db/client";
import type { Clock, Quota } from "@/lib/limiter";
import { type QuotaFloor, type RedisClient, raiseQuotas } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import type { Operation } from "@/lib/vocabulary";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "./time";
import { readUsage } from "./usage-read";
import type { UsageSettings } from "./usage-settings";

/** QuotaInForce is one enforced quota of one customer's class, and the bucket key it counts under. */
export interface QuotaInForce {
  customerId: number;
  operation: Operation;
  /** key is the customer's bucket key of the class (`<customerId>:<class>`). */
  key: string;
  quota: Quota;
}

/** QuotaRestorerOptions: the rollups, the Redis the quotas live in, and the quotas in force. */
export interface QuotaRestorerOptions {
  db: Db;
  redis: RedisClient;
  /** prefix starts the decisions' Redis keys ("rk"). */
  prefix: string;
  clock: Clock;
  log: Logger;
  settings: UsageSettings;
  /** quotas lists the enforced quotas of every customer at `now` (ms), from the policy. */
  quotas: (now: number) => Iterable<QuotaInForce>;
  /**
   * expire: a key written anew expires a day after its period (false when the decisions run on
   * an injected clock, whose keys never expire).
   */
  expire: boolean;
}

/**
 * periodFrom is where the rollups are read from for a period starting at `startMs`: the start
 * itself, floored to its minute (a zone's offset is whole minutes), unless minute rows are gone
 * there (before `minutesFromMs`) and the start is not on a whole hour: then the next hour, as
 * hour rows cannot be split and a floor must not count the period before.
 */
export function periodFrom(startMs: number, minutesFromMs: number): number {
  const minute = Math.floor(startMs / MINUTE_MS) * MINUTE_MS;
  if (minute >= minutesFromMs || minute % HOUR_MS === 0) return minute;
  return Math.ceil(minute / HOUR_MS) * HOUR_MS;
}

/**
 * QuotaRestorer is the control plane's floor under the quota counts in Redis: `restore` sums
 * what the usage rollups say each customer's class took in its quota's current period (tokens
 * taken, over minute, hour and day rows) and raises every Redis quota key below it (the max of
 * stored and computed, same period, one pipeline). It runs once a minute, and at once when the
 * control plane sees that Redis lost its data (the policy snapshot missing, a reconnection).
 * The rollups lag the decisions by the claim delay (a flush interval and a minute or so), so
 * this is a floor, never a ceiling: the instances' own memory covers the rest.
 */
export class QuotaRestorer {
  private readonly options: QuotaRestorerOptions;
  private running: Promise<number> | undefined;

  constructor(options: QuotaRestorerOptions) {
    this.options = options;
  }

  /** restore raises Redis's quota counts to the rollups' and resolves with how many it raised. */
  restore(): Promise<number> {
    // One at a time: a request during a run shares it.
    this.running ??= this.restoreOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** floors computes, from the rollups, the count every quota in force must hold now. */
  floors(now: number): QuotaFloor[] {
    const { db, settings } = this.options;
    const minutesFromMs = now - settings.minuteRetentionDays * DAY_MS;
    const starts = new Map<string, number>();
    const byStart = new Map<number, QuotaInForce[]>();
    for (const use of this.options.quotas(now)) {
      const calendarId = use.quota.calendarId;
      let start = starts.get(calendarId);
      if (start === undefined) {
        start = use.quota.calendar.windowAt(now).startMs;
        starts.set(calendarId, start);
      }
      const list = byStart.get(start);
      if (list) list.push(use);
      else byStart.set(start, [use]);
    }
    const floors: QuotaFloor[] = [];
    for (const [startMs, uses] of byStart) {
      const fromMs = periodFrom(startMs, minutesFromMs);
      if (fromMs >= now) continue;
      const taken = new Map<string, number>();
      for (const row of readUsage(db, { fromMs, toMs: now }, ["customer", "operation"], {
        minutesFromMs,
      })) {
        taken.set(`${row.customerId}|${row.operation}`, row.tokensTaken);
      }
      for (const use of uses) {
        const used = taken.get(`${use.customerId}|${use.operation}`) ?? 0;
        if (used > 0) floors.push({ key: use.key, quota: use.quota, startMs, used });
      }
    }
    return floors;
  }

  private async restoreOnce(): Promise<number> {
    const { redis, prefix, clock, log, expire } = this.options;
    const floors = this.floors(clock.now());
    const raised = await raiseQuotas(redis, prefix, floors, expire);
    if (raised > 0) {
      log.info(
        `Raised ${raised} quota count${raised === 1 ? "" : "s"} in Redis to what the usage rollups say was taken this period.`,
      );
    }
    return raised;
  }
}
