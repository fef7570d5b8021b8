import { HOUR_MS as HOUR, MINUTE_MS as MINUTE, SECOND_MS as SECOND } from "@/lib/limiter";

/** NICE_STEPS_MS are the tick spacings a time axis may use, shortest first. */
const NICE_STEPS_MS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
];

/** timeDomain is a live chart's x domain: the `windowMs` milliseconds up to `now`. */
export function timeDomain(now: number, windowMs: number): [number, number] {
  return [now - windowMs, now];
}

/** tickStepMs picks the shortest nice spacing that puts at most `maxTicks` ticks on `spanMs`. */
export function tickStepMs(spanMs: number, maxTicks: number): number {
  for (const step of NICE_STEPS_MS) {
    if (Math.floor(spanMs / step) + 1 <= maxTicks) return step;
  }
  return NICE_STEPS_MS.at(-1) as number;
}

/**
 * liveTicks places ticks on a live window counting back from `now` (now, now - step, ...), so
 * that their labels ("now", "-30s") stay put while the data scrolls under them.
 */
export function liveTicks(now: number, windowMs: number, maxTicks = 7): number[] {
  const step = tickStepMs(windowMs, maxTicks);
  const ticks: number[] = [];
  for (let t = now - Math.floor(windowMs / step) * step; t <= now; t += step) ticks.push(t);
  return ticks;
}

/** offsetTicks places ticks from 0 to `spanMs` at a nice spacing (simulated time). */
export function offsetTicks(spanMs: number, maxTicks = 8): number[] {
  const step = tickStepMs(spanMs, maxTicks);
  const ticks: number[] = [];
  for (let t = 0; t <= spanMs; t += step) ticks.push(t);
  return ticks;
}

/** formatSpan writes a whole-second duration compactly: 0 -> "0s", 90_000 -> "1m 30s", 3_600_000 -> "1h". */
export function formatSpan(ms: number): string {
  let s = Math.round(Math.abs(ms) / SECOND);
  const parts: string[] = [];
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (h) parts.push(`${h}h`);
  if (m) parts.push(`${m}m`);
  if (s || parts.length === 0) parts.push(`${s}s`);
  return parts.join(" ");
}

/** formatAgo labels a time on a live axis relative to `now`: "now", "-30s", "-1m 30s". */
export function formatAgo(t: number, now: number): string {
  const ago = now - t;
  if (Math.abs(ago) < 500) return "now";
  return `${ago > 0 ? "-" : "+"}${formatSpan(ago)}`;
}
