import { describe, expect, it } from "vitest";
import { quota } from "@/lib/limiter";
import { quotaOfCalendar } from "@/lib/limiter/calendar-id";

describe("quotaOfCalendar", () => {
  it("gives back a quota of the calendar an id names, for every period", () => {
    for (const q of [
      quota(9, "day", { timeZone: "America/New_York" }),
      quota(9, "week"),
      quota(9, "month", { anchorDay: 31, timeZone: "Europe/Berlin" }),
    ]) {
      expect(quotaOfCalendar(q.calendarId)?.calendarId).toBe(q.calendarId);
    }
    expect(quotaOfCalendar("day:UTC", 7)?.count).toBe(7);
  });

  it("is null for an id that names no valid calendar", () => {
    for (const id of ["", "year:UTC", "day:Mars/Olympus", "month:32:UTC", "month:UTC", "day"]) {
      expect(quotaOfCalendar(id)).toBeNull();
    }
  });
});
