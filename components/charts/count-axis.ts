/** niceStep is the smallest of 1, 2, 5 times a power of ten that is at least `raw` (raw > 0). */
export function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

/**
 * capacityTicks labels a 0..capacity axis: every whole number up to a capacity of 5, else
 * multiples of a nice step (at most 4 intervals) and the capacity itself, leaving out a
 * multiple that would crowd it (closer than half a step).
 */
export function capacityTicks(capacity: number): number[] {
  if (capacity <= 0) return [0];
  if (capacity <= 5) return Array.from({ length: Math.floor(capacity) + 1 }, (_, i) => i);
  const step = niceStep(capacity / 4);
  const ticks: number[] = [];
  for (let t = 0; t < capacity - step / 2; t += step) ticks.push(t);
  ticks.push(capacity);
  return ticks;
}
