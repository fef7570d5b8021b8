/** CountPoint counts allowed and denied decisions in a slot starting at `t` (ms). */
export interface CountPoint {
  t: number;
  allowed: number;
  denied: number;
}

/** NICE_WIDTHS are the slot widths (in input slots, seconds for per-second points) rebin picks. */
const NICE_WIDTHS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400,
];

/**
 * slotWidthFor picks the narrowest nice width (1, 2, 5, 10, 15, 30, 60... input slots) that
 * draws `count` points in at most `maxBars` bars.
 */
export function slotWidthFor(count: number, maxBars: number): number {
  const needed = Math.ceil(count / Math.max(1, maxBars));
  return NICE_WIDTHS.find((w) => w >= needed) ?? needed;
}

/**
 * rebin merges every `width` consecutive points into one slot, summing the counts; each slot
 * keeps the `t` of its first point (the last slot may hold fewer points).
 */
export function rebin(points: readonly CountPoint[], width: number): CountPoint[] {
  if (width <= 1) return points.map((p) => ({ ...p }));
  const out: CountPoint[] = [];
  for (let i = 0; i < points.length; i += width) {
    const slot = { t: (points[i] as CountPoint).t, allowed: 0, denied: 0 };
    for (let j = i; j < Math.min(points.length, i + width); j++) {
      slot.allowed += (points[j] as CountPoint).allowed;
      slot.denied += (points[j] as CountPoint).denied;
    }
    out.push(slot);
  }
  return out;
}

/** countTotals sums the allowed and denied counts of points. */
export function countTotals(points: readonly CountPoint[]): { allowed: number; denied: number } {
  let allowed = 0;
  let denied = 0;
  for (const p of points) {
    allowed += p.allowed;
    denied += p.denied;
  }
  return { allowed, denied };
}

/** Bar is a count point placed at the middle of its slot, for a numeric x axis. */
export interface Bar extends CountPoint {
  x: number;
}

/** toBars centres each point in its slot of `slotMs`, so a bar covers the time it counts. */
export function toBars(points: readonly CountPoint[], slotMs: number): Bar[] {
  return points.map((p) => ({ ...p, x: p.t + slotMs / 2 }));
}
