import { type Clock, type Limit, Limiter, limit } from "@/lib/limiter";
import { COST_RULE, isCost } from "@/lib/schemas/cost.schema";
import type { LimitShape, PolicyLimit } from "@/lib/vocabulary";
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
 * SimulatedDryRun is what the dry-run limits made of the allowed requests: `wouldRefuse` counts
 * the allowed requests they would have refused (all or nothing, as the server tries them), and
 * each limit's own `wouldRefuse` the ones it lacked the tokens for (a request refused by two
 * dry-run limits counts once in the total, once for each limit).
 */
export interface SimulatedDryRun {
  wouldRefuse: number;
  limits: { limit: LimitShape; wouldRefuse: number }[];
}

/**
 * SimulationResult is one point per second, from second 0 to the end of the span (or the last
 * request's second, if later), and the totals, decided by the enforced limits alone; what the
 * dry-run limits would have refused (no limits and 0 when there are none); and `tooLarge`, the
 * enforced limits whose full bucket holds less than the cost: with any, no request can ever
 * pass, and the server answers each with 413 (cost_exceeds_limit), not 429.
 */
export interface SimulationResult {
  seconds: SimulatedSecond[];
  totals: SimulationTotals;
  dryRun: SimulatedDryRun;
  tooLarge: LimitShape[];
}

/** SimInput selects the enforced limits, or with `dryRun` the dry-run ones, of the simulation. */
interface SimInput {
  dryRun: boolean;
}

const ENFORCED: SimInput = { dryRun: false };
const DRY_RUN: SimInput = { dryRun: true };

/**
 * runSimulation replays requests at the given offsets (ms; any order) through a fresh
 * `Limiter` from lib/limiter with the given limits, on a simulated clock that starts at 0 with
 * every bucket full. Offsets must not be negative (a RangeError otherwise). Each request takes
 * `cost` tokens, under the server's one cost rule (cost.schema.ts; a RangeError otherwise). The
 * limit arithmetic is the limiter's own: nothing here re-derives it. `spanMs` extends the seconds
 * reported past the last request (a pattern's quiet tail).
 *
 * As on the server (lib/policy's decision store), only the enforced limits allow or deny; the
 * dry-run ones are tried after each allowed request as one all-or-nothing decision of their own
 * on their own buckets (same key, so a dry-run limit equal to an enforced one shares its bucket),
 * taking the tokens when all have them and none otherwise, and never change the answer.
 */
export function runSimulation(
  limits: readonly PolicyLimit[],
  timestampsMs: readonly number[],
  cost = 1,
  spanMs = 0,
): SimulationResult {
  if (!isCost(cost)) throw new RangeError(`${COST_RULE}, got ${cost}`);
  let now = 0;
  const clock: Clock = { now: () => now };
  const enforced = limits.filter((l) => !l.dryRun).map((l) => limit(l.count, l.periodMs));
  const dryRun = limits.filter((l) => l.dryRun).map((l) => limit(l.count, l.periodMs));
  const limiter = new Limiter<SimInput, string>(
    () => "sim",
    [(input: SimInput) => (input.dryRun ? dryRun : enforced)],
    { clock },
  );
  // Every bucket is full at 0: a wait of Infinity is the limiter saying the cost never fits,
  // as the server reads it for its 413.
  const tooLarge = limiter
    .peekNWithDebug(ENFORCED, cost)
    .buckets.filter((bucket) => bucket.retryAfterMs === Number.POSITIVE_INFINITY)
    .map(({ limit: l }) => ({ count: l.count, periodMs: l.periodMs }));
  const refusedBy = new Map<string, number>(dryRun.map((l) => [l.id, 0]));
  let wouldRefuse = 0;
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
    if (!limiter.allowN(ENFORCED, cost)) {
      second.denied++;
      continue;
    }
    allowed++;
    second.allowed++;
    if (dryRun.length === 0 || limiter.allowN(DRY_RUN, cost)) continue;
    wouldRefuse++;
    // The refusal took nothing: a peek at the same instant names the limits that lacked tokens.
    for (const bucket of limiter.peekNWithDebug(DRY_RUN, cost).buckets) {
      if (!bucket.allowed)
        refusedBy.set(bucket.limit.id, (refusedBy.get(bucket.limit.id) ?? 0) + 1);
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
    dryRun: {
      wouldRefuse,
      limits: dryRun.map((l: Limit) => ({
        limit: { count: l.count, periodMs: l.periodMs },
        wouldRefuse: refusedBy.get(l.id) ?? 0,
      })),
    },
    tooLarge,
  };
}

/** simulate runs a pattern through the limits, reporting every second of the pattern's span. */
export function simulate(
  limits: readonly PolicyLimit[],
  pattern: Pattern,
  cost = 1,
): SimulationResult {
  return runSimulation(limits, timestampsOf(pattern), cost, spanMsOf(pattern));
}
