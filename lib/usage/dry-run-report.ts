import type { Tx } from "@/db/client";
import type { DryRunAggregate } from "@/db/queries/usage";
import type { LimitShape, LimitSource, Operation } from "@/lib/vocabulary";
import { MINUTE_MS } from "./time";
import { readDryRun, readUsage } from "./usage-read";

/** DryRunState is what became of a limit that was tried: still dry-run, enforced, or gone. */
export type DryRunState = "dry-run" | "enforced" | "removed";

/**
 * TriedLimit is a limit of the scope's policy now: its operation, shape, whose it is (the plan's
 * or an override's), whether it is dry-run and, if so, since when (ms; null if not recorded).
 */
export interface TriedLimit extends LimitShape {
  operation: Operation;
  source: LimitSource;
  dryRun: boolean;
  since?: number | null;
}

/** DryRunCustomer is a customer a dry-run limit would have refused, and how often. */
export interface DryRunCustomer {
  customerId: number;
  name: string;
  refused: number;
}

/**
 * DryRunLimitReport is one dry-run limit's verdict over a range: `refused` admitted decisions it
 * would have refused, out of `decisions` (every decision of that operation in the scope: allowed,
 * denied and unavailable alike), so `share` = refused / decisions; `customers` it would have
 * refused at least once, the most refused first in `top` (100 at most). A dry-run limit added
 * within the range counts only the traffic since: `sinceMs` is when it was added (null when it
 * was there before the range, or is not recorded).
 */
export interface DryRunLimitReport extends LimitShape {
  operation: Operation;
  source: LimitSource;
  state: DryRunState;
  sinceMs: number | null;
  refused: number;
  decisions: number;
  share: number | null;
  customers: number;
  top: DryRunCustomer[];
}

/** DryRunScope is a plan's own dry-run limits, or everything tried on one customer. */
export type DryRunScope = { planId: number } | { customerId: number };

const TOP = 100;

/** minuteOf is the start of the minute holding `ms`: where the rollups can start a count. */
export function minuteOf(ms: number): number {
  return ms - (((ms % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
}

/**
 * countedFrom is where a dry-run limit's report counts from: the range's start, or the minute it
 * was added in, if later (the rollups count by the minute; see `dryRunReport`'s `before`).
 */
export function countedFrom(fromMs: number, since: number | null | undefined): number {
  return since !== null && since !== undefined && since > fromMs ? minuteOf(since) : fromMs;
}

/**
 * dryRunReport reports, for each dry-run limit of the scope (those it has now, and those with
 * refusals in the range that have since been promoted or removed), what it would have refused
 * over [fromMs, toMs). For a plan, only the plan's own dry-run limits count (an override's
 * replace them for its customer) and decisions are those made on the plan. A dry-run limit added
 * within the range counts from the minute it was added in, less `before(limit)`: the decisions
 * of that minute made before it was added, where they are known (the live view's seconds).
 */
export function dryRunReport(
  tx: Tx,
  scope: DryRunScope,
  range: { fromMs: number; toMs: number },
  current: readonly TriedLimit[],
  nameOf: (customerId: number) => string,
  minutesFromMs: number,
  before: (limit: TriedLimit) => number = () => 0,
): DryRunLimitReport[] {
  const forPlan = "planId" in scope;
  // One count of refusals and of decisions per start: the range's, and each later addition's.
  const counted = new Map<
    number,
    { refusals: DryRunAggregate[]; decisions: Record<Operation, number> }
  >();
  const countFrom = (fromMs: number) => {
    let found = counted.get(fromMs);
    if (found) return found;
    const window = { fromMs, toMs: range.toMs };
    const refusals = readDryRun(
      tx,
      forPlan
        ? { ...window, planId: scope.planId, source: "plan" }
        : { ...window, customerId: scope.customerId },
      minutesFromMs,
    );
    const decisions = { read: 0, write: 0 };
    for (const row of readUsage(tx, { ...window, ...scope }, ["operation"], { minutesFromMs })) {
      decisions[row.operation] += row.allowed + row.denied + row.unavailable;
    }
    found = { refusals, decisions };
    counted.set(fromMs, found);
    return found;
  };
  const triedNow = (operation: Operation, count: number, periodMs: number, source: LimitSource) =>
    current.find(
      (l) =>
        l.operation === operation &&
        l.count === count &&
        l.periodMs === periodMs &&
        l.source === source,
    );
  const reports = new Map<
    string,
    DryRunLimitReport & { byCustomer: Map<number, number>; fromMs: number }
  >();
  const idOf = (operation: Operation, count: number, periodMs: number, source: LimitSource) =>
    `${operation}|${count}|${periodMs}|${source}`;
  const entry = (operation: Operation, count: number, periodMs: number, source: LimitSource) => {
    const id = idOf(operation, count, periodMs, source);
    let report = reports.get(id);
    if (!report) {
      const now = triedNow(operation, count, periodMs, source);
      const since = now?.dryRun ? (now.since ?? null) : null;
      const from = countedFrom(range.fromMs, since);
      const earlier = from > range.fromMs && now ? before(now) : 0;
      report = {
        operation,
        count,
        periodMs,
        source,
        state: now ? (now.dryRun ? "dry-run" : "enforced") : "removed",
        sinceMs: from > range.fromMs ? since : null,
        refused: 0,
        decisions: Math.max(0, countFrom(from).decisions[operation] - earlier),
        share: null,
        customers: 0,
        top: [],
        byCustomer: new Map(),
        fromMs: from,
      };
      reports.set(id, report);
    }
    return report;
  };
  for (const limit of current) {
    if (limit.dryRun) entry(limit.operation, limit.count, limit.periodMs, limit.source);
  }
  for (const row of countFrom(range.fromMs).refusals) {
    entry(row.operation, row.limitCount, row.limitPeriodMs, row.source);
  }
  for (const report of reports.values()) {
    for (const row of countFrom(report.fromMs).refusals) {
      if (
        idOf(row.operation, row.limitCount, row.limitPeriodMs, row.source) !==
        idOf(report.operation, report.count, report.periodMs, report.source)
      ) {
        continue;
      }
      report.refused += row.refused;
      report.byCustomer.set(
        row.customerId,
        (report.byCustomer.get(row.customerId) ?? 0) + row.refused,
      );
    }
  }
  return [...reports.values()]
    .map(({ byCustomer, fromMs: _from, ...report }) => {
      // A count of decisions less those before the addition never falls below the refusals.
      const decisions = Math.max(report.decisions, report.refused);
      return {
        ...report,
        decisions,
        share: decisions > 0 ? report.refused / decisions : null,
        customers: [...byCustomer.values()].filter((n) => n > 0).length,
        top: [...byCustomer]
          .filter(([, refused]) => refused > 0)
          .sort((a, b) => b[1] - a[1] || a[0] - b[0])
          .slice(0, TOP)
          .map(([customerId, refused]) => ({ customerId, name: nameOf(customerId), refused })),
      };
    })
    .sort(
      (a, b) =>
        a.operation.localeCompare(b.operation) || a.periodMs - b.periodMs || a.count - b.count,
    );
}
