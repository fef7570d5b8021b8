/** SECOND_MS is one second in milliseconds. */
export const SECOND_MS = 1_000;
/** MINUTE_MS is one minute in milliseconds: the finest rollup. */
export const MINUTE_MS = 60_000;
/** HOUR_MS is one hour in milliseconds: the folded rollup. */
export const HOUR_MS = 3_600_000;
/** DAY_MS is one day in milliseconds (UTC days: the epoch has no leap seconds). */
export const DAY_MS = 86_400_000;

/** floorTo returns the start of the `stepMs`-long step that holds `ms` (both in ms). */
export function floorTo(ms: number, stepMs: number): number {
  return Math.floor(ms / stepMs) * stepMs;
}
