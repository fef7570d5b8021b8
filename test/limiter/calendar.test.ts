import { describe, expect, it } from "vitest";
import { Calendar } from "@/lib/limiter";

/** at reads an ISO instant with an offset ("2026-03-29T00:00:00+01:00") as epoch ms. */
const at = (iso: string) => Date.parse(iso);

/** windowOf is the period holding `iso` as two ISO instants in UTC, for readable expectations. */
function windowOf(calendar: Calendar, iso: string): [string, string] {
  calendar.refresh(at(iso));
  return [new Date(calendar.startMs).toISOString(), new Date(calendar.endMs).toISOString()];
}

const hours = (calendar: Calendar) => (calendar.endMs - calendar.startMs) / 3_600_000;

describe("Calendar: days", () => {
  it("UTC days run from midnight to midnight", () => {
    const day = new Calendar({ period: "day" });
    expect(windowOf(day, "2026-05-10T13:45:00Z")).toEqual([
      "2026-05-10T00:00:00.000Z",
      "2026-05-11T00:00:00.000Z",
    ]);
    // The boundary belongs to the next day.
    expect(windowOf(day, "2026-05-11T00:00:00Z")[0]).toBe("2026-05-11T00:00:00.000Z");
    expect(windowOf(day, "2026-05-10T23:59:59.999Z")[0]).toBe("2026-05-10T00:00:00.000Z");
  });

  it("Europe/Berlin's spring-forward day (2026-03-29) is 23 hours, its fall-back day (2026-10-25) 25", () => {
    const day = new Calendar({ period: "day", timeZone: "Europe/Berlin" });
    expect(windowOf(day, "2026-03-29T12:00:00+02:00")).toEqual([
      "2026-03-28T23:00:00.000Z",
      "2026-03-29T22:00:00.000Z",
    ]);
    expect(hours(day)).toBe(23);
    expect(windowOf(day, "2026-10-25T12:00:00+01:00")).toEqual([
      "2026-10-24T22:00:00.000Z",
      "2026-10-25T23:00:00.000Z",
    ]);
    expect(hours(day)).toBe(25);
    // Just before local midnight of the 24th is still the 24th (in summer time).
    expect(windowOf(day, "2026-10-24T23:59:59+02:00")[0]).toBe("2026-10-23T22:00:00.000Z");
  });

  it("America/New_York's DST days (2026-03-08, 2026-11-01)", () => {
    const day = new Calendar({ period: "day", timeZone: "America/New_York" });
    expect(windowOf(day, "2026-03-08T10:00:00-04:00")).toEqual([
      "2026-03-08T05:00:00.000Z",
      "2026-03-09T04:00:00.000Z",
    ]);
    expect(windowOf(day, "2026-11-01T10:00:00-05:00")).toEqual([
      "2026-11-01T04:00:00.000Z",
      "2026-11-02T05:00:00.000Z",
    ]);
    expect(hours(day)).toBe(25);
  });

  it("a day whose midnight is skipped starts at its first instant (America/Sao_Paulo, 2018-11-04)", () => {
    const day = new Calendar({ period: "day", timeZone: "America/Sao_Paulo" });
    // Clocks went from 00:00 to 01:00 (-02:00): the day starts at 01:00 local.
    expect(windowOf(day, "2018-11-04T12:00:00-02:00")).toEqual([
      "2018-11-04T03:00:00.000Z",
      "2018-11-05T02:00:00.000Z",
    ]);
    expect(windowOf(day, "2018-11-03T23:30:00-03:00")[1]).toBe("2018-11-04T03:00:00.000Z");
  });
});

describe("Calendar: weeks", () => {
  it("weeks start Monday at local start of day", () => {
    const week = new Calendar({ period: "week" });
    // 2026-05-10 is a Sunday.
    expect(windowOf(week, "2026-05-10T12:00:00Z")).toEqual([
      "2026-05-04T00:00:00.000Z",
      "2026-05-11T00:00:00.000Z",
    ]);
    expect(windowOf(week, "2026-05-11T00:00:00Z")[0]).toBe("2026-05-11T00:00:00.000Z");
  });

  it("a week across a DST change is 167 or 169 hours (Europe/Berlin)", () => {
    const week = new Calendar({ period: "week", timeZone: "Europe/Berlin" });
    expect(windowOf(week, "2026-03-27T12:00:00+01:00")).toEqual([
      "2026-03-22T23:00:00.000Z",
      "2026-03-29T22:00:00.000Z",
    ]);
    expect(hours(week)).toBe(167);
    expect(windowOf(week, "2026-10-25T12:00:00+01:00")).toEqual([
      "2026-10-18T22:00:00.000Z",
      "2026-10-25T23:00:00.000Z",
    ]);
    expect(hours(week)).toBe(169);
  });
});

describe("Calendar: months", () => {
  it("months start on the 1st by default", () => {
    const month = new Calendar({ period: "month" });
    expect(windowOf(month, "2026-05-10T12:00:00Z")).toEqual([
      "2026-05-01T00:00:00.000Z",
      "2026-06-01T00:00:00.000Z",
    ]);
  });

  it("anchor 31 starts February's period on its last day: the 28th (2027) or the 29th (2028)", () => {
    const month = new Calendar({ period: "month", anchorDay: 31 });
    expect(windowOf(month, "2027-02-15T00:00:00Z")).toEqual([
      "2027-01-31T00:00:00.000Z",
      "2027-02-28T00:00:00.000Z",
    ]);
    expect(windowOf(month, "2027-02-28T00:00:00Z")).toEqual([
      "2027-02-28T00:00:00.000Z",
      "2027-03-31T00:00:00.000Z",
    ]);
    expect(windowOf(month, "2028-02-28T23:59:59Z")).toEqual([
      "2028-01-31T00:00:00.000Z",
      "2028-02-29T00:00:00.000Z",
    ]);
    expect(windowOf(month, "2028-02-29T00:00:00Z")).toEqual([
      "2028-02-29T00:00:00.000Z",
      "2028-03-31T00:00:00.000Z",
    ]);
    // April has 30 days: the anchor 31 falls on the 30th.
    expect(windowOf(month, "2027-04-30T00:00:00Z")).toEqual([
      "2027-04-30T00:00:00.000Z",
      "2027-05-31T00:00:00.000Z",
    ]);
    expect(windowOf(month, "2027-04-29T23:59:59Z")[0]).toBe("2027-03-31T00:00:00.000Z");
  });

  it("anchor 30 in February (both years) and anchor 29 in a non-leap February", () => {
    const thirty = new Calendar({ period: "month", anchorDay: 30 });
    expect(windowOf(thirty, "2027-02-27T00:00:00Z")).toEqual([
      "2027-01-30T00:00:00.000Z",
      "2027-02-28T00:00:00.000Z",
    ]);
    expect(windowOf(thirty, "2028-03-01T00:00:00Z")).toEqual([
      "2028-02-29T00:00:00.000Z",
      "2028-03-30T00:00:00.000Z",
    ]);
    const twentyNine = new Calendar({ period: "month", anchorDay: 29 });
    expect(windowOf(twentyNine, "2027-03-01T00:00:00Z")).toEqual([
      "2027-02-28T00:00:00.000Z",
      "2027-03-29T00:00:00.000Z",
    ]);
    // In a leap year the 29th of February exists.
    expect(windowOf(twentyNine, "2028-02-29T12:00:00Z")).toEqual([
      "2028-02-29T00:00:00.000Z",
      "2028-03-29T00:00:00.000Z",
    ]);
    expect(windowOf(twentyNine, "2028-02-28T12:00:00Z")[0]).toBe("2028-01-29T00:00:00.000Z");
  });

  it("a month in a zone starts at the anchor's local start of day, DST-aware", () => {
    const month = new Calendar({ period: "month", timeZone: "Europe/Berlin", anchorDay: 15 });
    expect(windowOf(month, "2026-03-20T12:00:00+01:00")).toEqual([
      "2026-03-14T23:00:00.000Z",
      "2026-04-14T22:00:00.000Z",
    ]);
    expect(windowOf(month, "2026-01-01T00:30:00+01:00")).toEqual([
      "2025-12-14T23:00:00.000Z",
      "2026-01-14T23:00:00.000Z",
    ]);
  });
});

describe("Calendar: validation and identity", () => {
  it("refuses an unknown zone, naming it, and an anchor outside 1..31", () => {
    expect(() => new Calendar({ period: "day", timeZone: "Mars/Olympus" })).toThrow(
      /timeZone.*Mars\/Olympus/,
    );
    expect(() => new Calendar({ period: "month", anchorDay: 0 })).toThrow(RangeError);
    expect(() => new Calendar({ period: "month", anchorDay: 32 })).toThrow(/anchorDay/);
    expect(() => new Calendar({ period: "month", anchorDay: 1.5 })).toThrow(/anchorDay/);
    expect(() => new Calendar({ period: "year" as "day" })).toThrow(/period/);
  });

  it("refuses an instant that is not epoch ms (a monotonic clock's reading)", () => {
    const day = new Calendar({ period: "day" });
    expect(() => day.refresh(12_345)).toThrow(/Unix epoch/);
    expect(() => day.refresh(Number.NaN)).toThrow(RangeError);
  });

  it("names the calendar by period, zone (canonical) and, for months, anchor", () => {
    expect(new Calendar({ period: "day", timeZone: "europe/berlin" }).id).toBe("day:Europe/Berlin");
    expect(new Calendar({ period: "week", anchorDay: 9 }).id).toBe("week:UTC");
    expect(new Calendar({ period: "month", anchorDay: 9 }).id).toBe("month:9:UTC");
  });

  it("recomputes only when an instant leaves the cached period", () => {
    const day = new Calendar({ period: "day" });
    day.refresh(at("2026-05-10T12:00:00Z"));
    const cached = day.startMs;
    let computed = 0;
    const windowAt = day.windowAt.bind(day);
    day.windowAt = (ms) => {
      computed++;
      return windowAt(ms);
    };
    day.refresh(at("2026-05-10T23:59:59Z"));
    day.refresh(at("2026-05-10T00:00:00Z"));
    expect(computed).toBe(0);
    expect(day.startMs).toBe(cached);
    day.refresh(at("2026-05-11T00:00:00Z"));
    expect(computed).toBe(1);
  });
});
