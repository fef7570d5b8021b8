// The units of time, defined once. The limiter parses and writes periods with them ("5m"), the
// dashboard edits and reads them aloud ("5 minutes"), the rollups step by them: every table of
// units derives from this file. It sits in the limiter, the lowest floor, because the limiter
// may import nothing from outside lib/limiter, and everything else may import the limiter.

/** SECOND_MS is one second in milliseconds. */
export const SECOND_MS = 1_000;
/** MINUTE_MS is one minute in milliseconds: the finest usage rollup. */
export const MINUTE_MS = 60 * SECOND_MS;
/** HOUR_MS is one hour in milliseconds. */
export const HOUR_MS = 60 * MINUTE_MS;
/** DAY_MS is one day in milliseconds (UTC days: the epoch has no leap seconds). */
export const DAY_MS = 24 * HOUR_MS;

/**
 * TIME_UNITS are the units a period is written in, smallest first: the suffix it takes ("5m"),
 * its words for one and for many, and its length in milliseconds (each divides the next).
 */
export const TIME_UNITS = [
  { unit: "ms", one: "millisecond", many: "milliseconds", ms: 1 },
  { unit: "s", one: "second", many: "seconds", ms: SECOND_MS },
  { unit: "m", one: "minute", many: "minutes", ms: MINUTE_MS },
  { unit: "h", one: "hour", many: "hours", ms: HOUR_MS },
  { unit: "d", one: "day", many: "days", ms: DAY_MS },
] as const;

/** TimeUnitEntry is one entry of TIME_UNITS. */
export type TimeUnitEntry = (typeof TIME_UNITS)[number];

/** TimeUnit is a unit's suffix: "ms", "s", "m", "h" or "d". */
export type TimeUnit = TimeUnitEntry["unit"];

/** timeUnit returns the entry of TIME_UNITS for a suffix. */
export function timeUnit(unit: TimeUnit): TimeUnitEntry {
  return TIME_UNITS.find((u) => u.unit === unit) as TimeUnitEntry;
}
