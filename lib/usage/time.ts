// The units of time are the limiter's (lib/limiter/units.ts), named here too for the rollups.
export { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from "@/lib/limiter";

/** floorTo returns the start of the `stepMs`-long step that holds `ms` (both in ms). */
export function floorTo(ms: number, stepMs: number): number {
  return Math.floor(ms / stepMs) * stepMs;
}
