// The one way the dashboard writes times: in the reader's zone (the browser's, unless a
// `timeZone` is given), with that zone named "UTC", "UTC+01:00" or "UTC-05:30" at that instant,
// days as "25 Nov 2026" and times of day on a 24-hour clock. Charts may leave out the year and
// the seconds, never the zone's name. Regression: "25 Nov 2026, 08:01:19 GMT-5" on the tokens
// page and the audit log, "25 Nov 08:06 UTC-05:00" on the overview, both on the inspector.

import { DAY_MS, MINUTE_MS } from "@/lib/limiter";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** WallClock is an instant as a clock in some zone shows it, and that zone's offset then. */
export interface WallClock {
  year: number;
  /** month is 1 (January) to 12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** offsetMinutes is the zone's offset from UTC at that instant, minutes east (UTC+01:00: 60). */
  offsetMinutes: number;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
      timeZoneName: "longOffset",
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/**
 * wallClock reads an instant (ms since the epoch) on the clock of `timeZone` (an IANA name), or
 * of the browser's own zone when it is undefined, daylight saving included.
 */
export function wallClock(ms: number, timeZone?: string): WallClock {
  if (timeZone === undefined) {
    const d = new Date(ms);
    return {
      year: d.getFullYear(),
      month: d.getMonth() + 1,
      day: d.getDate(),
      hour: d.getHours(),
      minute: d.getMinutes(),
      second: d.getSeconds(),
      offsetMinutes: -d.getTimezoneOffset(),
    };
  }
  const parts: Record<string, string> = {};
  for (const part of zoneFormat(timeZone).formatToParts(ms)) parts[part.type] = part.value;
  const offset = /GMT([+-])(\d{1,2})(?::(\d{2}))?/.exec(parts.timeZoneName ?? "");
  const offsetMinutes = offset
    ? (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3] ?? 0))
    : 0;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    offsetMinutes,
  };
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/**
 * zoneLabel names a UTC offset (minutes east of Greenwich) the dashboard's one way: "UTC" for
 * none, else "UTC+01:00", "UTC-05:30". Note that Date#getTimezoneOffset counts the other way.
 */
export function zoneLabel(offsetMinutes: number): string {
  const rounded = Math.round(offsetMinutes);
  if (rounded === 0) return "UTC";
  const abs = Math.abs(rounded);
  return `UTC${rounded < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** formatZone names the zone of `timeZone` (the browser's when undefined) at an instant (ms). */
export function formatZone(ms: number, timeZone?: string): string {
  return zoneLabel(wallClock(ms, timeZone).offsetMinutes);
}

function dayOf(c: WallClock): string {
  return `${c.day} ${MONTHS[c.month - 1]}`;
}

function clockOf(c: WallClock, seconds: boolean): string {
  const hm = `${pad2(c.hour)}:${pad2(c.minute)}`;
  return seconds ? `${hm}:${pad2(c.second)}` : hm;
}

/** formatDate writes the day of an instant (ms): "22 Nov 2026". */
export function formatDate(ms: number, timeZone?: string): string {
  const c = wallClock(ms, timeZone);
  return `${dayOf(c)} ${c.year}`;
}

/**
 * formatDateTime writes an instant (ms) to the second with its zone, so a reader elsewhere knows
 * which hour it was: "22 Nov 2026, 14:03:05 UTC", "22 Nov 2026, 09:03:05 UTC-05:00".
 */
export function formatDateTime(ms: number, timeZone?: string): string {
  const c = wallClock(ms, timeZone);
  return `${dayOf(c)} ${c.year}, ${clockOf(c, true)} ${zoneLabel(c.offsetMinutes)}`;
}

/** formatDateMinute writes an instant (ms) to the minute with its zone: "22 Nov 2026, 14:03 UTC". */
export function formatDateMinute(ms: number, timeZone?: string): string {
  const c = wallClock(ms, timeZone);
  return `${dayOf(c)} ${c.year}, ${clockOf(c, false)} ${zoneLabel(c.offsetMinutes)}`;
}

/** formatClock writes the time of day of an instant (ms) to the second: "14:03:05". */
export function formatClock(ms: number, timeZone?: string): string {
  return clockOf(wallClock(ms, timeZone), true);
}

/** formatTimeOfDay writes the time of day of an instant (ms) to the minute, for axes: "14:03". */
export function formatTimeOfDay(ms: number, timeZone?: string): string {
  return clockOf(wallClock(ms, timeZone), false);
}

/** formatDayMonth writes the day of an instant (ms) without the year, for axes: "22 Nov". */
export function formatDayMonth(ms: number, timeZone?: string): string {
  return dayOf(wallClock(ms, timeZone));
}

/**
 * formatStepSpan writes the span [t, t + stepMs) of a chart's step, short (no year) with the zone
 * named once: "23 Nov 14:05–14:06 UTC+01:00" within a day, "23 Nov 01:00 – 24 Nov 01:00
 * UTC+01:00" across midnight (a UTC day seen from another zone).
 */
export function formatStepSpan(t: number, stepMs: number, timeZone?: string): string {
  const start = wallClock(t, timeZone);
  const end = wallClock(t + stepMs, timeZone);
  const zone = zoneLabel(start.offsetMinutes);
  if (stepMs < DAY_MS && dayOf(start) === dayOf(end)) {
    return `${dayOf(start)} ${clockOf(start, false)}–${clockOf(end, false)} ${zone}`;
  }
  return `${dayOf(start)} ${clockOf(start, false)} – ${dayOf(end)} ${clockOf(end, false)} ${zone}`;
}

/** TIME_INPUT_FORMAT is how a time is typed into a field: a date and a 24-hour time. */
export const TIME_INPUT_FORMAT = "YYYY-MM-DD HH:MM";

/** TIME_INPUT_ERROR is what a time field says of text that parseTimeInput cannot read. */
export const TIME_INPUT_ERROR = "Write a time as 2026-11-25 14:30 (24-hour)";

/**
 * formatTimeInput writes an instant (ms) as a time field shows it: "2026-11-25 14:30", with the
 * seconds only when there are some ("2026-11-25 14:30:27"), so what is shown reads back as the
 * same second.
 */
export function formatTimeInput(ms: number, timeZone?: string): string {
  const c = wallClock(ms, timeZone);
  return `${c.year}-${pad2(c.month)}-${pad2(c.day)} ${clockOf(c, c.second !== 0)}`;
}

/** instantOf is the instant a wall clock reading names in `timeZone` (ms), or NaN. */
function instantOf(fields: Omit<WallClock, "offsetMinutes">, timeZone?: string): number {
  const { year, month, day, hour, minute, second } = fields;
  if (timeZone === undefined) return new Date(year, month - 1, day, hour, minute, second).getTime();
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // The offset at the instant the reading would be in UTC is nearly always the right one; a
  // second look settles readings near a change of offset.
  const first = asUtc - wallClock(asUtc, timeZone).offsetMinutes * MINUTE_MS;
  return asUtc - wallClock(first, timeZone).offsetMinutes * MINUTE_MS;
}

/**
 * parseTimeInput reads what was typed into a time field, in `timeZone` (the browser's when
 * undefined): "2026-11-25 14:30", "2026-11-25T14:30", with seconds or without, or a date alone
 * for its midnight ("2026-11-25"). Undefined for anything else, an impossible date included
 * ("2026-02-30", "24:00"): a field says how to write a time rather than guess.
 */
export function parseTimeInput(text: string, timeZone?: string): number | undefined {
  const match = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*$/.exec(
    text,
  );
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part))) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = instantOf({ year, month, day, hour, minute, second }, timeZone);
  return Number.isFinite(ms) ? ms : undefined;
}
