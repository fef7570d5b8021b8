import type { Tx } from "@/db/client";
import {
  listPeakBounds,
  listTakenSteps,
  type TakenStep,
  type UsageFilter,
} from "@/db/queries/usage";
import type { LimitShape, LimitSource, Operation } from "@/lib/vocabulary";
import { HOUR_MS, MINUTE_MS } from "./time";
import { readUsage } from "./usage-read";

/** CustomerLimits are a customer's enforced limits for an operation now, and whose they are. */
export interface CustomerLimits {
  limits: readonly LimitShape[];
  source: LimitSource;
}

/**
 * NearLimit is one customer's peak use of one limit over a range. The limit (count C per
 * period P) is measured over a window of k whole steps of the rollup's resolution r (a minute,
 * or an hour for ranges older than the minute rows), k = ceil(P / r), so W = k·r: its
 * `allowanceTokens` is what the limit refills over the window, C·W/P; `peakTokens` is the most
 * tokens taken in any k consecutive steps of the range; `share` = peak / allowance. A bucket
 * starts full, so a burst on top of the refill can take the share above 1.
 */
export interface NearLimit {
  customerId: number;
  operation: Operation;
  source: LimitSource;
  limit: LimitShape;
  windowMs: number;
  peakTokens: number;
  allowanceTokens: number;
  share: number;
  /** peakStartMs is where the peak window starts (ms since the epoch). */
  peakStartMs: number;
}

/** windowOf is a limit's window: k whole steps of `stepMs`, and what the limit refills over it. */
export function windowOf(limit: LimitShape, stepMs: number) {
  const steps = Math.max(1, Math.ceil(limit.periodMs / stepMs));
  const windowMs = steps * stepMs;
  return { steps, windowMs, allowanceTokens: (limit.count * windowMs) / limit.periodMs };
}

/**
 * peakOf slides a window of `windowMs` over one customer's steps of one operation (sorted by
 * time) and returns the most tokens taken in it and where that window starts.
 */
export function peakOf(
  steps: readonly TakenStep[],
  windowMs: number,
  stepMs: number,
): { peakTokens: number; peakStartMs: number } {
  let peakTokens = 0;
  let peakStartMs = steps[0]?.startMs ?? 0;
  let sum = 0;
  let first = 0;
  for (let last = 0; last < steps.length; last++) {
    const end = steps[last] as TakenStep;
    sum += end.tokensTaken;
    while ((steps[first] as TakenStep).startMs <= end.startMs - windowMs) {
      sum -= (steps[first] as TakenStep).tokensTaken;
      first++;
    }
    if (sum > peakTokens) {
      peakTokens = sum;
      peakStartMs = end.startMs - windowMs + stepMs;
    }
  }
  return { peakTokens, peakStartMs };
}

/**
 * nearLimits finds the customers whose peak use reached `minShare` of a limit over the filter's
 * range, most used first. Minute rows measure it while they cover the range; an older range is
 * measured in hours. Customers whose busiest step and total cannot reach `minShare` of any limit
 * are ruled out before their steps are read.
 */
export function nearLimits(
  tx: Tx,
  filter: UsageFilter,
  limitsOf: (customerId: number, operation: Operation) => CustomerLimits | undefined,
  options: { minShare: number; minutesFromMs: number },
): { resolutionMs: number; nearLimits: NearLimit[] } {
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
      }));
  const candidates: {
    bound: (typeof bounds)[number];
    policy: CustomerLimits;
    limits: LimitShape[];
  }[] = [];
  for (const bound of bounds) {
    const policy = limitsOf(bound.customerId, bound.operation);
    if (!policy) continue;
    const reachable = policy.limits.filter((limit) => {
      const w = windowOf(limit, stepMs);
      const most = Math.min(bound.totalTaken, w.steps * bound.maxStepTaken);
      return most >= options.minShare * w.allowanceTokens;
    });
    if (reachable.length > 0) candidates.push({ bound, policy, limits: reachable });
  }
  const steps = stepsOf(
    tx,
    filter,
    [...new Set(candidates.map((c) => c.bound.customerId))],
    byMinute,
    options,
  );
  const found: NearLimit[] = [];
  for (const { bound, policy, limits } of candidates) {
    const own = steps.get(`${bound.customerId}|${bound.operation}`) ?? [];
    for (const limit of limits) {
      const w = windowOf(limit, stepMs);
      const peak = peakOf(own, w.windowMs, stepMs);
      const share = peak.peakTokens / w.allowanceTokens;
      if (share < options.minShare) continue;
      found.push({
        customerId: bound.customerId,
        operation: bound.operation,
        source: policy.source,
        limit: { count: limit.count, periodMs: limit.periodMs },
        windowMs: w.windowMs,
        peakTokens: peak.peakTokens,
        allowanceTokens: w.allowanceTokens,
        share,
        peakStartMs: peak.peakStartMs,
      });
    }
  }
  found.sort((a, b) => b.share - a.share || a.customerId - b.customerId);
  return { resolutionMs: stepMs, nearLimits: found };
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
