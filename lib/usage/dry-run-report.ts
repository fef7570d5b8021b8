import type { Tx } from "@/db/client";
import type { LimitShape, LimitSource, Operation } from "@/lib/vocabulary";
import { readDryRun, readUsage } from "./usage-read";

/** DryRunState is what became of a limit that was tried: still dry-run, enforced, or gone. */
export type DryRunState = "dry-run" | "enforced" | "removed";

/**
 * TriedLimit is a limit of the scope's policy now: its operation, shape, whose it is (the plan's
 * or an override's) and whether it is dry-run.
 */
export interface TriedLimit extends LimitShape {
  operation: Operation;
  source: LimitSource;
  dryRun: boolean;
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
 * refused at least once, the most refused first in `top` (100 at most).
 */
export interface DryRunLimitReport extends LimitShape {
  operation: Operation;
  source: LimitSource;
  state: DryRunState;
  refused: number;
  decisions: number;
  share: number | null;
  customers: number;
  top: DryRunCustomer[];
}

/** DryRunScope is a plan's own dry-run limits, or everything tried on one customer. */
export type DryRunScope = { planId: number } | { customerId: number };

const TOP = 100;

/**
 * dryRunReport reports, for each dry-run limit of the scope (those it has now, and those with
 * refusals in the range that have since been promoted or removed), what it would have refused
 * over [fromMs, toMs). For a plan, only the plan's own dry-run limits count (an override's
 * replace them for its customer) and decisions are those made on the plan.
 */
export function dryRunReport(
  tx: Tx,
  scope: DryRunScope,
  range: { fromMs: number; toMs: number },
  current: readonly TriedLimit[],
  nameOf: (customerId: number) => string,
  minutesFromMs: number,
): DryRunLimitReport[] {
  const forPlan = "planId" in scope;
  const refusals = readDryRun(
    tx,
    forPlan
      ? { ...range, planId: scope.planId, source: "plan" }
      : { ...range, customerId: scope.customerId },
    minutesFromMs,
  );
  const decisions = { read: 0, write: 0 };
  for (const row of readUsage(tx, { ...range, ...scope }, ["operation"], { minutesFromMs })) {
    decisions[row.operation] += row.allowed + row.denied + row.unavailable;
  }
  const reports = new Map<string, DryRunLimitReport & { byCustomer: Map<number, number> }>();
  const idOf = (operation: Operation, count: number, periodMs: number, source: LimitSource) =>
    `${operation}|${count}|${periodMs}|${source}`;
  const stateOf = (
    operation: Operation,
    count: number,
    periodMs: number,
    source: LimitSource,
  ): DryRunState => {
    const now = current.find(
      (l) =>
        l.operation === operation &&
        l.count === count &&
        l.periodMs === periodMs &&
        l.source === source,
    );
    return now ? (now.dryRun ? "dry-run" : "enforced") : "removed";
  };
  const entry = (operation: Operation, count: number, periodMs: number, source: LimitSource) => {
    const id = idOf(operation, count, periodMs, source);
    let report = reports.get(id);
    if (!report) {
      report = {
        operation,
        count,
        periodMs,
        source,
        state: stateOf(operation, count, periodMs, source),
        refused: 0,
        decisions: decisions[operation],
        share: null,
        customers: 0,
        top: [],
        byCustomer: new Map(),
      };
      reports.set(id, report);
    }
    return report;
  };
  for (const limit of current) {
    if (limit.dryRun) entry(limit.operation, limit.count, limit.periodMs, limit.source);
  }
  for (const row of refusals) {
    const report = entry(row.operation, row.limitCount, row.limitPeriodMs, row.source);
    report.refused += row.refused;
    report.byCustomer.set(
      row.customerId,
      (report.byCustomer.get(row.customerId) ?? 0) + row.refused,
    );
  }
  return [...reports.values()]
    .map(({ byCustomer, ...report }) => ({
      ...report,
      share: report.decisions > 0 ? report.refused / report.decisions : null,
      customers: [...byCustomer.values()].filter((n) => n > 0).length,
      top: [...byCustomer]
        .filter(([, refused]) => refused > 0)
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, TOP)
        .map(([customerId, refused]) => ({ customerId, name: nameOf(customerId), refused })),
    }))
    .sort(
      (a, b) =>
        a.operation.localeCompare(b.operation) || a.periodMs - b.periodMs || a.count - b.count,
    );
}
