import { type Clock, Limiter, limit } from "@/lib/limiter";
import { COST_RULE, isCost } from "@/lib/schemas/cost.schema";
import type { LimitShape } from "@/lib/vocabulary";
import { type Pattern, spanMsOf, timestampsOf } from "./pattern";

export { type Pattern, parseTimestamps, requestCount, spanMsOf, timestampsOf } from "./pattern";

/** SimulatedSecond counts the decisions of one second: `t` is its start (ms from the start). */
export interface SimulatedSecond {
  t: number;
  allowed: number;
  denied: number;
}

/** SimulationTotals sums a simulation: `allowedShare` is allowed / requests (0 with no requests). */
export interface SimulationTotals {
  requests: number;
  allowed: number;
  denied: number;
  allowedShare: number;
}

/**
 * SimulationResult is one point per second, from second 0 to the end of the span (or the last
 * request's second, if later), and the totals.
 */
export interface SimulationResult {
  seconds: SimulatedSecond[];
  totals: SimulationTotals;
}

/**
 * runSimulation replays requests at the given offsets (ms; any order) through a fresh
 * `Limiter` from lib/limiter with the given limits, on a simulated clock that starts at 0 with
 * every bucket full. Offsets must not be negative (a RangeError otherwise). Each request takes
 * `cost` tokens, under the server's one cost rule (cost.schema.ts; a RangeError otherwise). The limit
 * arithmetic is the limiter's own: nothing here re-derives it. `spanMs` extends the seconds
 * reported past the last request (a pattern's quiet tail).
 */
export function runSimulation(
  limits: readonly LimitShape[],
  timestampsMs: readonly number[],
  cost = 1,
  spanMs = 0,
): SimulationResult {
  if (!isCost(cost)) throw new RangeError(`${COST_RULE}, got ${cost}`);
  let now = 0;
  const clock: Clock = { now: () => now };
  const limiter = new Limiter(
    () => "sim",
    limits.map((l) => limit(l.count, l.periodMs)),
    { clock },
  );
  const sorted = [...timestampsMs].sort((a, b) => a - b);
  if (sorted.length > 0 && !((sorted[0] as number) >= 0)) {
    throw new RangeError(`timestamps must be offsets of 0 ms or more, got ${sorted[0]}`);
  }
  const last = sorted.at(-1);
  const secondCount = Math.max(
    Math.ceil(spanMs / 1000),
    last === undefined ? 0 : Math.floor(last / 1000) + 1,
  );
  const seconds: SimulatedSecond[] = [];
  for (let s = 0; s < secondCount; s++) seconds.push({ t: s * 1000, allowed: 0, denied: 0 });
  let allowed = 0;
  for (const t of sorted) {
    now = t;
    const second = seconds[Math.floor(t / 1000)] as SimulatedSecond;
    if (limiter.allowN(null, cost)) {
      allowed++;
      second.allowed++;
    } else {
      second.denied++;
    }
  }
  const requests = sorted.length;
  return {
    seconds,
    totals: {
      requests,
      allowed,
      denied: requests - allowed,
      allowedShare: requests === 0 ? 0 : allowed / requests,
    },
  };
}

/** simulate runs a pattern through the limits, reporting every second of the pattern's span. */
export function simulate(
  limits: readonly LimitShape[],
  pattern: Pattern,
  cost = 1,
): SimulationResult {
  return runSimulation(limits, timestampsOf(pattern), cost, spanMsOf(pattern));
}
