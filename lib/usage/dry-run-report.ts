import type { Tx } from "@/db/client";
import type { DryRunAggregate } from "@/db/queries/usage";
import type { DryRunLimitReport } from "@/lib/schemas/dry-run-answer.schema";
import type { Operation } from "@/lib/vocabulary";
import type { Judgement, TriedLimitKey } from "./dry-run-judge";
import { type Interval, union } from "./dry-run-timeline";
import { MINUTE_MS, SECOND_MS } from "./time";
import { readDryRun, readUsage } from "./usage-read";

/** JudgedLimit is a limit to report on and where the report stands on it. */
export interface JudgedLimit extends TriedLimitKey, Judgement {}

/** DryRunScope is a plan's own dry-run limits, or everything tried on one customer. */
export type DryRunScope = { planId: number } | { customerId: number };

const TOP = 100;

/** minuteOf is the start of the minute holding `ms`: where the rollups can start a count. */
export function minuteOf(ms: number): number {
  return ms - (((ms % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
}

/**
 * windowsOf is what the rollups are read over for intervals within `range`: each from the
 * minute it starts in (the rollups count whole minutes; from the range's start, for one that
 * starts with it) until its end, so through the minute it ends in; merged, so no minute is read
 * twice. `edgeMinutesOf` names the minutes read that the intervals hold only in part.
 */
export function windowsOf(tried: readonly Interval[], range: Interval): Interval[] {
  return union(
    tried.map((i) => ({
      fromMs: i.fromMs <= range.fromMs ? range.fromMs : minuteOf(i.fromMs),
      toMs: Math.min(i.toMs, range.toMs),
    })),
  );
}

/**
 * edgeMinutesOf lists the starts of the minutes that `windowsOf` reads whole but the intervals
 * hold only in part: those an interval starts or ends within, inside the range.
 */
export function edgeMinutesOf(tried: readonly Interval[], range: Interval): number[] {
  const minutes = new Set<number>();
  for (const i of tried) {
    if (i.fromMs > range.fromMs && minuteOf(i.fromMs) !== i.fromMs) minutes.add(minuteOf(i.fromMs));
    if (i.toMs < range.toMs && minuteOf(i.toMs) !== i.toMs) minutes.add(minuteOf(i.toMs));
  }
  return [...minutes].sort((a, b) => a - b);
}

/**
 * outsideSecond tells whether the second starting at `t` (ms) lies wholly outside the intervals:
 * a second an interval starts or ends within counts as inside it.
 */
export function outsideSecond(t: number, tried: readonly Interval[]): boolean {
  return !tried.some((i) => t < i.toMs && t + SECOND_MS > i.fromMs);
}

/**
 * refusedLimits lists the limits with would-be refusals in the scope over the range (a plan's:
 * its own limits only), each once: those a report covers besides the scope's current ones.
 */
export function refusedLimits(
  tx: Tx,
  scope: DryRunScope,
  range: Interval,
  minutesFromMs: number,
): TriedLimitKey[] {
  const keys = new Map<string, TriedLimitKey>();
  for (const row of readRefusals(tx, scope, range, minutesFromMs)) {
    const key = { ...keyOf(row), source: row.source };
    keys.set(idOf(key), key);
  }
  return [...keys.values()];
}

function readRefusals(tx: Tx, scope: DryRunScope, window: Interval, minutesFromMs: number) {
  return readDryRun(
    tx,
    "planId" in scope
      ? { ...window, planId: scope.planId, source: "plan" }
      : { ...window, customerId: scope.customerId },
    minutesFromMs,
  );
}

function keyOf(row: DryRunAggregate) {
  return { operation: row.operation, count: row.limitCount, periodMs: row.limitPeriodMs };
}

function idOf(l: TriedLimitKey): string {
  return `${l.operation}|${l.count}|${l.periodMs}|${l.source}`;
}

/**
 * dryRunReport reports what each judged limit would have refused where it was tried (see
 * DryRunLimitReport): its would-be refusals and the scope's decisions of its operation over the
 * rollup windows of its `tried` intervals (see `windowsOf`), less `outside(limit)`: the decisions
 * in the edge minutes read that fell outside them, where they are known (the live view's
 * seconds). A limit no longer tried is reported only if it was tried on some decision. For a
 * plan, only the plan's own dry-run limits count, and the decisions are those made on the plan.
 */
export function dryRunReport(
  tx: Tx,
  scope: DryRunScope,
  range: Interval,
  judged: readonly JudgedLimit[],
  nameOf: (customerId: number) => string,
  minutesFromMs: number,
  outside: (limit: JudgedLimit) => number = () => 0,
): DryRunLimitReport[] {
  // One read of refusals and of decisions per window: limits tried alike share them.
  const counted = new Map<
    string,
    { refusals: DryRunAggregate[]; decisions: Map<Operation, number> }
  >();
  const countIn = (window: Interval) => {
    const id = `${window.fromMs}|${window.toMs}`;
    let found = counted.get(id);
    if (found) return found;
    const decisions = new Map<Operation, number>();
    for (const row of readUsage(tx, { ...window, ...scope }, ["operation"], { minutesFromMs })) {
      const made = row.allowed + row.denied + row.unavailable;
      decisions.set(row.operation, (decisions.get(row.operation) ?? 0) + made);
    }
    found = { refusals: readRefusals(tx, scope, window, minutesFromMs), decisions };
    counted.set(id, found);
    return found;
  };
  return judged
    .map((limit) => {
      const byCustomer = new Map<number, number>();
      let refused = 0;
      let decisions = 0;
      for (const window of windowsOf(limit.tried, range)) {
        const counts = countIn(window);
        decisions += counts.decisions.get(limit.operation) ?? 0;
        for (const row of counts.refusals) {
          if (idOf({ ...keyOf(row), source: row.source }) !== idOf(limit)) continue;
          refused += row.refused;
          byCustomer.set(row.customerId, (byCustomer.get(row.customerId) ?? 0) + row.refused);
        }
      }
      // A count of decisions less those outside never falls below the refusals.
      decisions = Math.max(decisions - (limit.tried.length > 0 ? outside(limit) : 0), refused);
      const refusedBy = [...byCustomer].filter(([, n]) => n > 0);
      return {
        operation: limit.operation,
        count: limit.count,
        periodMs: limit.periodMs,
        source: limit.source,
        state: limit.state,
        stateSinceMs: limit.stateSinceMs,
        sinceMs: limit.sinceMs,
        tried: limit.tried,
        refused,
        decisions,
        share: decisions > 0 ? refused / decisions : null,
        customers: refusedBy.length,
        top: refusedBy
          .sort((a, b) => b[1] - a[1] || a[0] - b[0])
          .slice(0, TOP)
          .map(([customerId, n]) => ({ customerId, name: nameOf(customerId), refused: n })),
      };
    })
    .filter((report) => report.state === "dry-run" || report.decisions > 0)
    .sort(
      (a, b) =>
        a.operation.localeCompare(b.operation) ||
        a.periodMs - b.periodMs ||
        a.count - b.count ||
        a.source.localeCompare(b.source),
    );
}
