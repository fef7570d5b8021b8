import { Quota } from "./quota";

/**
 * quotaOfCalendar returns a Quota of the calendar a `calendarId` names ("day:<zone>",
 * "week:<zone>", "month:<anchor>:<zone>"), counting `count` tokens (1 by default: a saved state
 * is restored by calendar, whatever the count), or null when the id names no valid calendar.
 */
export function quotaOfCalendar(calendarId: string, count = 1): Quota | null {
  const [period, ...rest] = calendarId.split(":");
  try {
    if ((period === "day" || period === "week") && rest.length === 1) {
      return new Quota(count, period, { timeZone: rest[0] });
    }
    if (period === "month" && rest.length === 2 && /^\d{1,2}$/.test(rest[0] as string)) {
      return new Quota(count, "month", { anchorDay: Number(rest[0]), timeZone: rest[1] });
    }
  } catch {
    return null;
  }
  return null;
}
