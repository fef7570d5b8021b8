import { Temporal } from "temporal-polyfill";

/** QUOTA_PERIODS are the calendar periods a quota counts over. */
export const QUOTA_PERIODS = ["day", "week", "month"] as const;

/** QuotaPeriod is a calendar period: a local day, a week from Monday, or a month from an anchor. */
export type QuotaPeriod = (typeof QUOTA_PERIODS)[number];

/**
 * EARLIEST_EPOCH_MS is 2000-01-01T00:00:00Z in ms since the Unix epoch: a calendar refuses an
 * instant before it, which is a clock that does not count from the epoch (a monotonic one).
 */
export const EARLIEST_EPOCH_MS = 946_684_800_000;

/** CalendarSpec names a calendar: its period, IANA time zone and (for months) anchor day. */
export interface CalendarSpec {
  period: QuotaPeriod;
  /** timeZone is an IANA zone ("UTC", "Europe/Berlin"); "UTC" by default. */
  timeZone?: string;
  /** anchorDay is the day of the month months start on, 1..31 (1 by default; months only). */
  anchorDay?: number;
}

/** PeriodWindow is one period of a calendar: `[startMs, endMs)`, ms since the Unix epoch. */
export interface PeriodWindow {
  startMs: number;
  endMs: number;
}

/**
 * Calendar cuts time into periods: days from the zone's start of day (23 or 25 hours long on a
 * daylight-saving change; the first instant of the day when midnight is skipped), weeks from
 * Monday's start of day, months from the anchor day's start of day (an anchor past a month's
 * last day is that last day). The arithmetic is Temporal's (temporal-polyfill), never a table.
 *
 * It keeps the last period it computed (`startMs`, `endMs`): `refresh` recomputes only when an
 * instant leaves it, so a decision inside the period reads two numbers and calls nothing.
 */
export class Calendar {
  readonly period: QuotaPeriod;
  /** timeZone is the zone's canonical IANA id. */
  readonly timeZone: string;
  /** anchorDay is 1..31; it only moves month starts (days and weeks always report 1). */
  readonly anchorDay: number;
  /** id identifies equal calendars: "day:<zone>", "week:<zone>" or "month:<anchor>:<zone>". */
  readonly id: string;
  /** startMs is the start of the last period computed (ms since the epoch; NaN before any). */
  startMs = Number.NaN;
  /** endMs is the end (exclusive) of the last period computed (NaN before any). */
  endMs = Number.NaN;

  constructor(spec: CalendarSpec) {
    const { period } = spec;
    if (!QUOTA_PERIODS.includes(period)) {
      throw new RangeError(`period must be one of day, week, month, got ${JSON.stringify(period)}`);
    }
    const anchorDay = spec.anchorDay ?? 1;
    if (!Number.isInteger(anchorDay) || anchorDay < 1 || anchorDay > 31) {
      throw new RangeError(`anchorDay must be a whole number from 1 to 31, got ${anchorDay}`);
    }
    const zone = spec.timeZone ?? "UTC";
    let timeZone: string;
    try {
      timeZone = Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(zone).timeZoneId;
    } catch {
      throw new RangeError(`timeZone must be an IANA time zone, got ${JSON.stringify(zone)}`);
    }
    this.period = period;
    this.timeZone = timeZone;
    this.anchorDay = period === "month" ? anchorDay : 1;
    this.id = period === "month" ? `month:${anchorDay}:${timeZone}` : `${period}:${timeZone}`;
  }

  /**
   * refresh makes `startMs`/`endMs` the period holding `ms` (ms since the epoch, at or after
   * EARLIEST_EPOCH_MS, else a RangeError): a no-op while `ms` stays in the last period.
   */
  refresh(ms: number): void {
    if (ms >= this.startMs && ms < this.endMs) return;
    if (!(ms >= EARLIEST_EPOCH_MS) || !Number.isFinite(ms)) {
      throw new RangeError(
        `a quota needs a clock reading ms since the Unix epoch (such as the app's appClock), got ${ms}`,
      );
    }
    const window = this.windowAt(ms);
    this.startMs = window.startMs;
    this.endMs = window.endMs;
  }

  /**
   * windowAt is the period holding `ms` (ms since the epoch), as a new object, computed afresh
   * (it calls Temporal; the cache is left alone): for reports, not for decisions.
   */
  windowAt(ms: number): PeriodWindow {
    const date = Temporal.Instant.fromEpochMilliseconds(Math.floor(ms))
      .toZonedDateTimeISO(this.timeZone)
      .toPlainDate();
    let start: Temporal.PlainDate;
    let end: Temporal.PlainDate;
    if (this.period === "day") {
      start = date;
      end = date.add({ days: 1 });
    } else if (this.period === "week") {
      start = date.subtract({ days: date.dayOfWeek - 1 });
      end = start.add({ days: 7 });
    } else {
      const month = date.toPlainYearMonth();
      const here = this.anchorIn(month);
      if (Temporal.PlainDate.compare(date, here) >= 0) {
        start = here;
        end = this.anchorIn(month.add({ months: 1 }));
      } else {
        start = this.anchorIn(month.subtract({ months: 1 }));
        end = here;
      }
    }
    return { startMs: this.startOf(start), endMs: this.startOf(end) };
  }

  /** anchorIn is the anchor day of `month`, or its last day when the anchor is past it. */
  private anchorIn(month: Temporal.PlainYearMonth): Temporal.PlainDate {
    return month.toPlainDate({ day: Math.min(this.anchorDay, month.daysInMonth) });
  }

  /** startOf is the first instant of `date` in the zone (ms since the epoch). */
  private startOf(date: Temporal.PlainDate): number {
    return date.toZonedDateTime(this.timeZone).epochMilliseconds;
  }
}
