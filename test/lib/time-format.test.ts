import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatClock,
  formatDate,
  formatDateMinute,
  formatDateTime,
  formatDayMonth,
  formatStepSpan,
  formatTimeInput,
  formatTimeOfDay,
  formatZone,
  parseTimeInput,
  TIME_INPUT_FORMAT,
  zoneLabel,
} from "@/lib/time-format";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// 2026-11-22T14:03:05Z, in winter: New York is UTC-05:00, Paris UTC+01:00.
const AT = Date.UTC(2026, 10, 22, 14, 3, 5);
const SUMMER = Date.UTC(2026, 6, 1, 12, 0, 0);

describe("the dashboard's one way to write times", () => {
  // Regression: "25 Nov 2026, 08:01:19 GMT-5" on the tokens page and in the audit log,
  // "25 Nov 08:06 UTC-05:00" on the overview: two ways, both on the inspector.
  it("names every zone one way, UTC±HH:MM, and UTC itself as UTC", () => {
    expect(zoneLabel(0)).toBe("UTC");
    expect(zoneLabel(60)).toBe("UTC+01:00");
    expect(zoneLabel(-300)).toBe("UTC-05:00");
    expect(zoneLabel(-330)).toBe("UTC-05:30");
    expect(zoneLabel(345)).toBe("UTC+05:45");
    expect(formatZone(AT, "UTC")).toBe("UTC");
    expect(formatZone(AT, "America/New_York")).toBe("UTC-05:00");
    expect(formatZone(SUMMER, "America/New_York")).toBe("UTC-04:00");
    expect(formatZone(AT, "Asia/Kolkata")).toBe("UTC+05:30");
    expect(formatZone(AT, "Asia/Kathmandu")).toBe("UTC+05:45");
  });

  it("writes full times with the year and that zone, to the second or the minute", () => {
    expect(formatDateTime(AT, "UTC")).toBe("22 Nov 2026, 14:03:05 UTC");
    expect(formatDateTime(AT, "America/New_York")).toBe("22 Nov 2026, 09:03:05 UTC-05:00");
    expect(formatDateMinute(AT, "America/New_York")).toBe("22 Nov 2026, 09:03 UTC-05:00");
    expect(formatDate(AT, "Pacific/Kiritimati")).toBe("23 Nov 2026");
    expect(formatDateTime(AT, "UTC").startsWith(`${formatDate(AT, "UTC")}, `)).toBe(true);
    // Midnight is 00, never 24.
    expect(formatDateTime(Date.UTC(2026, 0, 1), "UTC")).toBe("1 Jan 2026, 00:00:00 UTC");
  });

  it("writes short forms for charts, the zone named once for a step", () => {
    expect(formatClock(AT, "America/New_York")).toBe("09:03:05");
    expect(formatTimeOfDay(AT, "America/New_York")).toBe("09:03");
    expect(formatDayMonth(AT, "America/New_York")).toBe("22 Nov");
    const minute = Date.UTC(2026, 10, 23, 14, 5);
    expect(formatStepSpan(minute, MINUTE, "Europe/Paris")).toBe("23 Nov 15:05–15:06 UTC+01:00");
    expect(formatStepSpan(Date.UTC(2026, 10, 23), DAY, "Europe/Paris")).toBe(
      "23 Nov 01:00 – 24 Nov 01:00 UTC+01:00",
    );
    expect(formatStepSpan(Date.UTC(2026, 10, 23, 22), HOUR, "Europe/Paris")).toBe(
      "23 Nov 23:00 – 24 Nov 00:00 UTC+01:00",
    );
  });

  it("reads a typed time in the zone named, 24-hour, and refuses what is not one", () => {
    expect(TIME_INPUT_FORMAT).toBe("YYYY-MM-DD HH:MM");
    const ny = "America/New_York";
    expect(parseTimeInput("2026-01-15 14:30", ny)).toBe(Date.UTC(2026, 0, 15, 19, 30));
    expect(parseTimeInput(" 2026-01-15T14:30:15 ", ny)).toBe(Date.UTC(2026, 0, 15, 19, 30, 15));
    expect(parseTimeInput("2026-07-15 14:30", ny)).toBe(Date.UTC(2026, 6, 15, 18, 30));
    expect(parseTimeInput("2026-01-16", ny)).toBe(Date.UTC(2026, 0, 16, 5));
    expect(parseTimeInput("2026-01-15 14:30", "UTC")).toBe(Date.UTC(2026, 0, 15, 14, 30));
    for (const bad of [
      "",
      "16/01/2026",
      "2026-01-15 2pm",
      "2026-02-30",
      "2026-13-01",
      "2026-01-15 24:00",
      "2026-01-15 12:60",
    ]) {
      expect(parseTimeInput(bad, ny), bad).toBeUndefined();
    }
    // What the field shows reads back as the same minute.
    const typed = formatTimeInput(Date.UTC(2026, 0, 15, 19, 30), ny);
    expect(typed).toBe("2026-01-15 14:30");
    expect(parseTimeInput(typed, ny)).toBe(Date.UTC(2026, 0, 15, 19, 30));
    // Seconds are written only when there are some, and read back as the same second.
    const withSeconds = formatTimeInput(Date.UTC(2026, 0, 15, 19, 30, 27), ny);
    expect(withSeconds).toBe("2026-01-15 14:30:27");
    expect(parseTimeInput(withSeconds, ny)).toBe(Date.UTC(2026, 0, 15, 19, 30, 27));
  });

  it("an hour that happens twice (clocks going back) reads as one of them, a skipped one as a real instant", () => {
    // New York, 1 Nov 2026: 01:30 happens at 05:30Z and at 06:30Z.
    const twice = parseTimeInput("2026-11-01 01:30", "America/New_York");
    expect([Date.UTC(2026, 10, 1, 5, 30), Date.UTC(2026, 10, 1, 6, 30)]).toContain(twice);
    // 8 Mar 2026: 02:30 never happens in New York.
    const skipped = parseTimeInput("2026-03-08 02:30", "America/New_York") as number;
    expect(Number.isFinite(skipped)).toBe(true);
  });
});

describe("the browser's own zone", () => {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.TZ;
    process.env.TZ = "Europe/Paris";
  });
  afterAll(() => {
    process.env.TZ = saved;
  });

  it("is used when no zone is given, daylight saving included", () => {
    expect(formatZone(AT)).toBe("UTC+01:00");
    expect(formatZone(SUMMER)).toBe("UTC+02:00");
    expect(formatDateTime(AT)).toBe("22 Nov 2026, 15:03:05 UTC+01:00");
    expect(formatClock(new Date(2025, 0, 2, 4, 3, 5).getTime())).toBe("04:03:05");
    expect(parseTimeInput("2026-11-22 15:03")).toBe(Date.UTC(2026, 10, 22, 14, 3));
    expect(formatTimeInput(AT)).toBe("2026-11-22 15:03:05");
  });
});
