import { Calendar, type QuotaPeriod } from "./calendar";

/** QuotaOptions place a quota's periods: the IANA zone ("UTC") and the months' anchor day (1). */
export interface QuotaOptions {
  timeZone?: string;
  anchorDay?: number;
}

/**
 * calendars shares one Calendar (and its cached period) among equal quotas, by the spec as
 * written and by calendar id: a limit func that builds its quotas anew on every call validates
 * nothing and calls no Temporal after the first.
 */
const calendars = new Map<string, Calendar>();

/** calendarOf returns the shared Calendar for a spec, validating it (RangeError). */
function calendarOf(period: QuotaPeriod, options: QuotaOptions): Calendar {
  const spec = `${period}|${options.anchorDay ?? 1}|${options.timeZone ?? "UTC"}`;
  const cached = calendars.get(spec);
  if (cached) return cached;
  const fresh = new Calendar({ period, ...options });
  const calendar = calendars.get(fresh.id) ?? fresh;
  calendars.set(fresh.id, calendar);
  calendars.set(spec, calendar);
  return calendar;
}

/**
 * Quota is an immutable allowance of `count` tokens per calendar period (a day, a week from
 * Monday, a month from an anchor day) in a time zone. A key's state is the period's start and
 * the tokens used in it, kept per `calendarId`, not per count: a quota edited to another count
 * keeps the tokens used. Quotas read the clock as ms since the Unix epoch (the app's appClock).
 */
export class Quota {
  /** kind tells a Quota from a Limit in a mixed list. */
  readonly kind = "quota";
  /** count is the tokens a key may take per period: a positive safe integer. */
  readonly count: number;
  readonly period: QuotaPeriod;
  /** timeZone is the zone's canonical IANA id. */
  readonly timeZone: string;
  /** anchorDay is the day of the month months start on (1..31; 1 for days and weeks). */
  readonly anchorDay: number;
  /** calendarId identifies the periods (period, zone, anchor) and so the state: not the count. */
  readonly calendarId: string;
  /** id identifies equal quotas: "<count>@<calendarId>". */
  readonly id: string;
  /** calendar computes (and caches) the periods; shared by every quota of the same calendarId. */
  readonly calendar: Calendar;

  constructor(count: number, period: QuotaPeriod, options: QuotaOptions = {}) {
    if (!Number.isSafeInteger(count) || count <= 0) {
      throw new RangeError(`count must be a positive safe integer, got ${count}`);
    }
    this.calendar = calendarOf(period, options);
    this.count = count;
    this.period = period;
    this.timeZone = this.calendar.timeZone;
    this.anchorDay = this.calendar.anchorDay;
    this.calendarId = this.calendar.id;
    this.id = `${count}@${this.calendarId}`;
    Object.freeze(this);
  }

  /** equals reports whether `other` has the same count and calendar. */
  equals(other: Quota): boolean {
    return this.id === other.id;
  }

  /** toString describes the quota, e.g. "1000 per month (day 15, Europe/Berlin)". */
  toString(): string {
    const anchor = this.period === "month" ? `day ${this.anchorDay}, ` : "";
    return `${this.count} per ${this.period} (${anchor}${this.timeZone})`;
  }
}

/**
 * quota returns a Quota of `count` tokens per calendar `period`, e.g. `quota(1000, "month",
 * { timeZone: "Europe/Berlin", anchorDay: 15 })`; RangeError for a bad count, zone or anchor.
 */
export function quota(count: number, period: QuotaPeriod, options: QuotaOptions = {}): Quota {
  return new Quota(count, period, options);
}
