/** niceStep is the smallest of 1, 2, 5 times a power of ten that is at least `raw` (raw > 0). */
export function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

/** stepsBetween lists candidate steps for 0..capacity: `m` times powers of ten within [lo, hi]. */
function stepsBetween(lo: number, hi: number, multiples: readonly number[]): number[] {
  const steps: number[] = [];
  for (let power = 10 ** Math.floor(Math.log10(lo)); power <= hi; power *= 10) {
    for (const m of multiples) {
      const step = m * power;
      if (step >= lo && step <= hi) steps.push(step);
    }
  }
  return steps.sort((a, b) => a - b);
}

/**
 * capacityTicks labels a 0..capacity axis (capacity in tokens) with evenly spaced whole ticks
 * that end at the capacity: every whole number up to a capacity of 5; else the smallest step of
 * 1, 2 or 5 times a power of ten that divides the capacity into 2 to 4 intervals; else such a
 * step of 25 times a power of ten; else the capacity split into 4, 3 or 2 whole intervals; else
 * 0 and the capacity alone. Regression: a bucket of 50 was ticked 0, 20, 50.
 */
export function capacityTicks(capacity: number): number[] {
  if (capacity <= 0) return [0];
  if (capacity <= 5) return Array.from({ length: Math.floor(capacity) + 1 }, (_, i) => i);
  const divides = (step: number) => Number.isInteger(step) && capacity % step === 0;
  const lo = capacity / 4;
  const hi = capacity / 2;
  const step =
    stepsBetween(lo, hi, [1, 2, 5]).find(divides) ??
    stepsBetween(lo, hi, [2.5]).find(divides) ??
    [4, 3, 2].map((n) => capacity / n).find(divides) ??
    capacity;
  const ticks: number[] = [];
  for (let i = 0; i * step <= capacity; i++) ticks.push(i * step);
  return ticks;
}
