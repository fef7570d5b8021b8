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
 * PeakNearLimit is one customer's peak use of one limit over a range. The limit (count C per
 * period P) is measured over a window of k whole steps of resolution r (a second, from the live
 * view; a minute, or an hour for ranges older than the minute rows, from the rollups), with
 * k = ceil(P / r), so W = k·r: its `allowanceTokens` is what the limit refills over the window,
 * C·W/P; `peakTokens` is the most tokens taken in any k consecutive steps; `share` = peak /
 * allowance. A bucket starts full, so a burst on top of the refill can take the share above 1.
 * Only limits of at least one step are measured at a resolution: a shorter limit's window would
 * be a whole step's total, which hides its bursts. `refused` counts the decisions of the
 * customer and operation refused over the range, by any limit.
 */
export interface PeakNearLimit {
  kind: "peak";
  customerId: number;
  operation: Operation;
  source: LimitSource;
  limit: LimitShape;
  resolutionMs: number;
  windowMs: number;
  peakTokens: number;
  allowanceTokens: number;
  share: number;
  /** peakStartMs is where the peak window starts (ms since the epoch). */
  peakStartMs: number;
  refused: number;
}

/**
 * RefusedNearLimit is a customer refused over the range (`refused` decisions of the operation)
 * whose measured peaks stayed under 100%: a limit it reached was one the measure cannot see (one
 * shorter than the resolution, or a burst across two steps). It counts as 100% of a limit;
 * `unmeasured` are its limits that were not measured over the range.
 */
export interface RefusedNearLimit {
  kind: "refused";
  customerId: number;
  operation: Operation;
  source: LimitSource;
  share: 1;
  refused: number;
  unmeasured: LimitShape[];
}

/** NearLimit is a customer near a limit: by a measured peak, or by refusals. */
export type NearLimit = PeakNearLimit | RefusedNearLimit;

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
  steps: readonly Pick<TakenStep, "startMs" | "tokensTaken">[],
  windowMs: number,
  stepMs: number,
): { peakTokens: number; peakStartMs: number } {
  let peakTokens = 0;
  let peakStartMs = steps[0]?.startMs ?? 0;
  let sum = 0;
  let first = 0;
  for (let last = 0; last < steps.length; last++) {
    const end = steps[last] as Pick<TakenStep, "startMs" | "tokensTaken">;
    sum += end.tokensTaken;
    while (
      (steps[first] as Pick<TakenStep, "startMs" | "tokensTaken">).startMs <=
      end.startMs - windowMs
    ) {
      sum -= (steps[first] as Pick<TakenStep, "startMs" | "tokensTaken">).tokensTaken;
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
 * nearLimits finds, from the rollups, the customers whose peak use reached `minShare` of a
 * limit of at least a step over the filter's range, most used first, and the customers refused
 * over it. Minute rows measure it while they cover the range; an older range is measured in
 * hours. Customers whose busiest step and total cannot reach `minShare` of any limit are ruled
 * out before their steps are read.
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
    const reachable = policy.limits.filter((limit) => {
      if (!measuredAt(limit, stepMs)) return false;
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
  const found: PeakNearLimit[] = [];
  for (const { bound, policy, limits } of candidates) {
    const key = `${bound.customerId}|${bound.operation}`;
    const own = steps.get(key) ?? [];
    found.push(
      ...peaksOf(bound.customerId, bound.operation, policy.source, own, limits, stepMs, {
        minShare: options.minShare,
        refused: refusedBy.get(key) ?? 0,
      }),
    );
  }
  found.sort(byShare);
  return { resolutionMs: stepMs, nearLimits: found, refused };
}

/**
 * peaksOf measures each of `limits` over one customer's steps of one operation (steps of
 * `stepMs`, oldest first) and returns those whose peak reached `minShare`. A limit shorter than
 * a step is measured over one step (its average there): callers choose which limits that suits.
 */
export function peaksOf(
  customerId: number,
  operation: Operation,
  source: LimitSource,
  steps: readonly Pick<TakenStep, "startMs" | "tokensTaken">[],
  limits: readonly LimitShape[],
  stepMs: number,
  options: { minShare: number; refused: number },
): PeakNearLimit[] {
  const found: PeakNearLimit[] = [];
  for (const limit of limits) {
    const w = windowOf(limit, stepMs);
    const peak = peakOf(steps, w.windowMs, stepMs);
    const share = peak.peakTokens / w.allowanceTokens;
    if (share < options.minShare) continue;
    found.push({
      kind: "peak",
      customerId,
      operation,
      source,
      limit: { count: limit.count, periodMs: limit.periodMs },
      resolutionMs: stepMs,
      windowMs: w.windowMs,
      peakTokens: peak.peakTokens,
      allowanceTokens: w.allowanceTokens,
      share,
      peakStartMs: peak.peakStartMs,
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
