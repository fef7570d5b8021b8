import type { Tx } from "@/db/client";
import {
  listPeakBounds,
  listTakenSteps,
  type PeakBound,
  type TakenStep,
  type UsageFilter,
} from "@/db/queries/usage";
import { BucketTrace, limit as limitOf } from "@/lib/limiter";
import type { NearLimit, PeakNearLimit } from "@/lib/schemas/near-limit-answer.schema";
import type { LimitShape, LimitSource, Operation } from "@/lib/vocabulary";
import type { Take } from "./bucket-history";
import { HOUR_MS, MINUTE_MS } from "./time";
import { readUsage } from "./usage-read";

/** CustomerLimits are a customer's enforced limits for an operation now, and whose they are. */
export interface CustomerLimits {
  limits: readonly LimitShape[];
  source: LimitSource;
}

/** RefusedCustomer is a customer and operation refused over a range, with its current policy. */
export interface RefusedCustomer {
  customerId: number;
  operation: Operation;
  refused: number;
  policy: CustomerLimits;
}

/** measuredAt tells whether a limit is measured at a resolution: its period spans a step. */
export function measuredAt(limit: LimitShape, stepMs: number): boolean {
  return limit.periodMs >= stepMs;
}

/**
 * stepTakes places each step's tokens at its start (steps oldest first): the earliest they can
 * have been taken, so a replay through them drains a bucket as deep as any placement within the
 * steps would, or deeper.
 */
export function stepTakes(steps: readonly Pick<TakenStep, "startMs" | "tokensTaken">[]): Take[] {
  return steps.filter((s) => s.tokensTaken > 0).map((s) => ({ atMs: s.startMs, n: s.tokensTaken }));
}

/**
 * lowestLevel replays a bucket of `limit`, full at `fromMs`, through `takes` (oldest first, none
 * before `fromMs`) with the limiter's arithmetic, and returns the fewest whole tokens it held
 * right after a take and when it first held them; null with no takes (it stayed full). A take
 * the bucket could not have allowed leaves it empty (in debt), never below 0 tokens.
 */
export function lowestLevel(
  limit: LimitShape,
  takes: readonly Take[],
  fromMs: number,
): { lowestTokens: number; lowestAtMs: number } | null {
  const trace = new BucketTrace(limitOf(limit.count, limit.periodMs), fromMs);
  let lowest: { lowestTokens: number; lowestAtMs: number } | null = null;
  for (const take of takes) {
    trace.take(take.atMs, take.n);
    const { remaining } = trace.levelAt(take.atMs);
    if (lowest === null || remaining < lowest.lowestTokens) {
      lowest = { lowestTokens: remaining, lowestAtMs: take.atMs };
      if (remaining === 0) break;
    }
  }
  return lowest;
}

/**
 * mayReach tells whether steps bounded by `bound` (their largest step, their total) could drain a
 * bucket of `limit` to `minShare` of it, replayed per step of `stepMs`: the tokens missing from a
 * bucket never exceed the total taken, nor the largest step while no step takes more than a
 * step's refill. A whole token is left for the rounding of a level to whole tokens.
 */
export function mayReach(
  limit: LimitShape,
  bound: Pick<PeakBound, "maxStepTaken" | "totalTaken">,
  stepMs: number,
  minShare: number,
): boolean {
  const needed = minShare * limit.count - 1;
  if (bound.totalTaken < needed) return false;
  return bound.maxStepTaken >= needed || bound.maxStepTaken * limit.periodMs > stepMs * limit.count;
}

/**
 * nearLimits finds, from the rollups, the customers who drained the bucket of a limit of at
 * least a step to `minShare` of it over the filter's range (see PeakNearLimit), nearest first,
 * and the customers refused by their limits over it. Minute rows measure it while they cover the range; an older range is measured in
 * hours. Customers whose busiest step and total cannot reach `minShare` of any limit (mayReach)
 * are ruled out before their steps are read.
 */
export function nearLimits(
  tx: Tx,
  filter: UsageFilter,
  limitsOf: (customerId: number, operation: Operation) => CustomerLimits | undefined,
  options: { minShare: number; minutesFromMs: number },
): { resolutionMs: number; nearLimits: PeakNearLimit[]; refused: RefusedCustomer[] } {
  const byMinute = filter.fromMs >= options.minutesFromMs;
  const stepMs = byMinute ? MINUTE_MS : HOUR_MS;
  const bounds = byMinute
    ? listPeakBounds(tx, "minutes", filter)
    : readUsage(tx, filter, ["customer", "operation"], {
        minutesFromMs: options.minutesFromMs,
      }).map((r) => ({
        customerId: r.customerId,
        operation: r.operation,
        maxStepTaken: r.tokensTaken,
        totalTaken: r.tokensTaken,
        denied: r.denied,
      }));
  const candidates: {
    bound: (typeof bounds)[number];
    policy: CustomerLimits;
    limits: LimitShape[];
  }[] = [];
  const refused: RefusedCustomer[] = [];
  const refusedBy = new Map<string, number>();
  for (const bound of bounds) {
    const policy = limitsOf(bound.customerId, bound.operation);
    if (!policy) continue;
    if (bound.denied > 0) {
      const { customerId, operation, denied } = bound;
      refused.push({ customerId, operation, refused: denied, policy });
      refusedBy.set(`${customerId}|${operation}`, denied);
    }
    const reachable = policy.limits.filter(
      (limit) => measuredAt(limit, stepMs) && mayReach(limit, bound, stepMs, options.minShare),
    );
    if (reachable.length > 0) candidates.push({ bound, policy, limits: reachable });
  }
  const steps = stepsOf(
    tx,
    filter,
    [...new Set(candidates.map((c) => c.bound.customerId))],
    byMinute,
    options,
  );
  const found: PeakNearLimit[] = [];
  for (const { bound, policy, limits } of candidates) {
    const key = `${bound.customerId}|${bound.operation}`;
    const own = steps.get(key) ?? [];
    found.push(
      ...peaksOf(bound.customerId, bound.operation, policy.source, stepTakes(own), limits, {
        fromMs: filter.fromMs,
        resolutionMs: stepMs,
        minShare: options.minShare,
        refused: refusedBy.get(key) ?? 0,
      }),
    );
  }
  found.sort(byShare);
  return { resolutionMs: stepMs, nearLimits: found, refused };
}

/**
 * peaksOf replays the bucket of each of `limits` from full at `fromMs` through one customer's
 * takes of one operation (oldest first; placed per `resolutionMs`, see PeakNearLimit) and returns
 * those drained to `minShare` of their count or further. Callers choose the limits the placement
 * suits: at least a step long, or any limit with the live view's seconds.
 */
export function peaksOf(
  customerId: number,
  operation: Operation,
  source: LimitSource,
  takes: readonly Take[],
  limits: readonly LimitShape[],
  options: { fromMs: number; resolutionMs: number; minShare: number; refused: number },
): PeakNearLimit[] {
  const found: PeakNearLimit[] = [];
  for (const limit of limits) {
    const lowest = lowestLevel(limit, takes, options.fromMs);
    if (lowest === null) continue;
    const share = 1 - lowest.lowestTokens / limit.count;
    if (share < options.minShare) continue;
    found.push({
      kind: "peak",
      customerId,
      operation,
      source,
      limit: { count: limit.count, periodMs: limit.periodMs },
      resolutionMs: options.resolutionMs,
      ...lowest,
      share,
      refused: options.refused,
    });
  }
  return found;
}

/** byShare orders findings nearest first, then by customer, operation and limit period. */
export function byShare(a: NearLimit, b: NearLimit): number {
  return (
    b.share - a.share ||
    a.customerId - b.customerId ||
    a.operation.localeCompare(b.operation) ||
    (a.kind === "peak" ? a.limit.periodMs : 0) - (b.kind === "peak" ? b.limit.periodMs : 0)
  );
}

/**
 * withRefusals adds to the measured peaks a finding at 100% for each customer and operation
 * refused over the range whose peaks all stayed under 100% (naming its limits that no peak
 * measured: those shorter than `stepMs` and not in `perSecond`), nearest first.
 */
export function withRefusals(
  peaks: readonly PeakNearLimit[],
  refused: readonly RefusedCustomer[],
  stepMs: number,
  perSecond: (customerId: number, operation: Operation, limit: LimitShape) => boolean,
): NearLimit[] {
  const reached = new Set(
    peaks.filter((p) => p.share >= 1).map((p) => `${p.customerId}|${p.operation}`),
  );
  const found: NearLimit[] = [...peaks];
  for (const r of refused) {
    if (reached.has(`${r.customerId}|${r.operation}`)) continue;
    found.push({
      kind: "refused",
      customerId: r.customerId,
      operation: r.operation,
      source: r.policy.source,
      share: 1,
      refused: r.refused,
      unmeasured: r.policy.limits
        .filter((l) => !measuredAt(l, stepMs) && !perSecond(r.customerId, r.operation, l))
        .map((l) => ({ count: l.count, periodMs: l.periodMs })),
    });
  }
  return found.sort(byShare);
}

/** stepsOf reads the candidates' steps, grouped by customer and operation, in time order. */
function stepsOf(
  tx: Tx,
  filter: UsageFilter,
  customerIds: readonly number[],
  byMinute: boolean,
  options: { minutesFromMs: number },
): Map<string, TakenStep[]> {
  const rows = byMinute
    ? listTakenSteps(tx, "minutes", filter, customerIds)
    : customerIds.flatMap((customerId) =>
        readUsage(tx, { ...filter, customerId }, ["bucket", "operation"], {
          bucketMs: HOUR_MS,
          minutesFromMs: options.minutesFromMs,
        }).map((r) => ({
          customerId,
          operation: r.operation,
          startMs: r.bucket,
          tokensTaken: r.tokensTaken,
        })),
      );
  const grouped = new Map<string, TakenStep[]>();
  for (const row of rows) {
    const key = `${row.customerId}|${row.operation}`;
    const list = grouped.get(key) ?? [];
    list.push(row);
    grouped.set(key, list);
  }
  for (const list of grouped.values()) list.sort((a, b) => a.startMs - b.startMs);
  return grouped;
}
