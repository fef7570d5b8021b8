import { TIME_UNITS, type TimeUnit, timeUnit } from "./units";

/** PERIOD_PATTERN reads a period with a unit: a whole number and a suffix of TIME_UNITS. */
const PERIOD_PATTERN = new RegExp(`^(\\d+)(${TIME_UNITS.map((u) => u.unit).join("|")})$`);

/** Period is a duration: milliseconds as a number, or a whole number and a unit ("10s", "1h"). */
export type Period = number | `${number}${TimeUnit}`;

function gcd(a: number, b: number): number {
  while (b !== 0) {
    const r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/** parsePeriod converts a Period to milliseconds, throwing a RangeError naming `period`. */
export function parsePeriod(period: Period): number {
  if (typeof period === "number") {
    if (!Number.isFinite(period) || period <= 0) {
      throw new RangeError(
        `period must be a positive, finite number of milliseconds, got ${period}`,
      );
    }
    if (!Number.isSafeInteger(period)) {
      // A fractional period cannot be counted exactly (a full bucket might hold count - 1).
      throw new RangeError(`period must be a whole number of milliseconds, got ${period}`);
    }
    return period;
  }
  const match = typeof period === "string" ? PERIOD_PATTERN.exec(period.trim()) : null;
  if (!match) {
    throw new RangeError(
      `period must be milliseconds or a whole number with a unit of ms, s, m, h or d, got ${JSON.stringify(period)}`,
    );
  }
  const ms = Number(match[1]) * timeUnit(match[2] as TimeUnit).ms;
  if (ms <= 0 || !Number.isSafeInteger(ms)) {
    throw new RangeError(`period must be positive, got ${JSON.stringify(period)}`);
  }
  return ms;
}

/**
 * Limit is an immutable allowance of `count` tokens per `periodMs` milliseconds. Two limits with
 * the same count and period are equal (same `id`) and share buckets within a limiter.
 *
 * Internally time is counted in units of `1 / scale` ms, chosen so that one token
 * (`tokenUnits`) and one period (`periodUnits`) are whole numbers: bucket arithmetic is then
 * integer arithmetic, exact for whole-millisecond periods, with no drift however many tokens
 * are taken one at a time.
 */
export class Limit {
  /** count is the number of tokens a full bucket holds: a positive safe integer. */
  readonly count: number;
  /** periodMs is the time, in milliseconds, in which an empty bucket refills completely. */
  readonly periodMs: number;
  /** id identifies equal limits: "count/periodMs". */
  readonly id: string;
  /** scale is the number of internal time units per millisecond. */
  readonly scale: number;
  /** tokenUnits is the time one token is worth, in internal units. */
  readonly tokenUnits: number;
  /** periodUnits is the period in internal units: exactly `count * tokenUnits`. */
  readonly periodUnits: number;

  constructor(count: number, period: Period) {
    if (!Number.isSafeInteger(count) || count <= 0) {
      throw new RangeError(`count must be a positive safe integer, got ${count}`);
    }
    const periodMs = parsePeriod(period);
    this.count = count;
    this.periodMs = periodMs;
    this.id = `${count}/${periodMs}`;
    const g = gcd(periodMs, count);
    this.scale = count / g;
    this.tokenUnits = periodMs / g;
    this.periodUnits = this.tokenUnits * count;
    if (this.periodUnits > Number.MAX_SAFE_INTEGER) {
      throw new RangeError(
        `count and period are too fine-grained together to count exactly (count ${count}, period ${periodMs} ms)`,
      );
    }
    Object.freeze(this);
  }

  /** equals reports whether `other` has the same count and period. */
  equals(other: Limit): boolean {
    return this.id === other.id;
  }

  /** toString describes the limit, e.g. "10 per 1s". */
  toString(): string {
    return `${this.count} per ${formatPeriod(this.periodMs)}`;
  }
}

/** formatPeriod writes milliseconds in the largest whole unit: 60000 -> "1m", 1500 -> "1500ms". */
export function formatPeriod(periodMs: number): string {
  for (let i = TIME_UNITS.length - 1; i > 0; i--) {
    const { unit, ms } = TIME_UNITS[i] as (typeof TIME_UNITS)[number];
    if (periodMs % ms === 0) return `${periodMs / ms}${unit}`;
  }
  return `${periodMs}ms`;
}

/** limit returns a Limit of `count` tokens per `period`, e.g. `limit(10, "1s")`, `limit(100, 60_000)`. */
export function limit(count: number, period: Period): Limit {
  return new Limit(count, period);
}
