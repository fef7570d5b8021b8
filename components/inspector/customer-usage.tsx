"use client";

import { classTitle } from "@/components/classes/class-words";
import { bucketsOf, describeAnyLimits } from "@/components/ui/limit-words";
import { requestsOf } from "@/components/usage/dry-run-words";
import { RangePicker } from "@/components/usage/range-picker";
import { UsageCard, useScopedUsage } from "@/components/usage/scoped-usage";
import { allowancePerStep } from "@/components/usage/usage-data";
import { RANGE_SPECS, ROLLUP_RANGES, type RollupRange } from "@/components/usage/usage-range";
import type { OverrideView, PlanWithLimits } from "@/lib/client/types";
import { countOf } from "@/lib/format";
import type { Operation } from "@/lib/vocabulary";

/**
 * enforcedLimits are the limits a customer's requests of one operation obey at `now` (ms): its
 * override's while one applies, else its plan's; dry-run limits left out.
 */
export function enforcedLimits(
  operation: Operation,
  planLimits: PlanWithLimits["limits"],
  override: OverrideView | undefined,
  now: number,
) {
  const active = override && (override.expiresAt === null || override.expiresAt > now);
  const limits = active ? override.limits : planLimits.filter((l) => l.operation === operation);
  return { limits: limits.filter((l) => !l.dryRun), source: active ? "override" : "plan" };
}

/**
 * CustomerUsage charts a customer's requests of each class (`classes`, read and write first) over
 * a range from the usage rollups,
 * denials marked, against the limits it obeys now (the line is what the tightest refills in a
 * step).
 */
export function CustomerUsage({
  customerId,
  classes,
  plan,
  overrides,
  range,
  onRange,
}: {
  customerId: number;
  classes: readonly Operation[];
  plan: PlanWithLimits | undefined;
  overrides: Partial<Record<Operation, OverrideView>>;
  range: RollupRange;
  onRange: (range: RollupRange) => void;
}) {
  return (
    <>
      <div className="page-header">
        <h2>Usage</h2>
        <RangePicker ranges={ROLLUP_RANGES} value={range} onChange={onRange} />
      </div>
      <div className="grid cols-2">
        {classes.map((operation) => (
          <OperationUsage
            key={operation}
            customerId={customerId}
            operation={operation}
            plan={plan}
            override={overrides[operation]}
            range={range}
          />
        ))}
      </div>
    </>
  );
}

function OperationUsage({
  customerId,
  operation,
  plan,
  override,
  range,
}: {
  customerId: number;
  operation: Operation;
  plan: PlanWithLimits | undefined;
  override: OverrideView | undefined;
  range: RollupRange;
}) {
  const { now, usage } = useScopedUsage(range, { customerId, operation });
  const enforced = plan ? enforcedLimits(operation, plan.limits, override, now) : undefined;
  return (
    <UsageCard
      title={`${classTitle(operation)} over time`}
      headingId={`usage-${operation}-heading`}
      range={range}
      usage={usage}
      now={now}
      // The line is drawn from the buckets: a quota's calendar period has no steady refill.
      allowance={
        enforced ? (stepMs) => allowancePerStep(bucketsOf(enforced.limits), stepMs) : undefined
      }
      summary={(data) => (
        <p className="muted small" data-testid={`usage-${operation}-totals`}>
          {data.totals.allowed.toLocaleString("en-US")} allowed,{" "}
          <span className="bad-text">{data.totals.denied.toLocaleString("en-US")} denied</span>,{" "}
          {countOf(data.totals.tokensTaken, "token")} taken
          {enforced ? ` · limits (${enforced.source}): ${describeAnyLimits(enforced.limits)}` : ""}
        </p>
      )}
      // Regression: a class other than read and write was written "No exportss".
      empty={`No ${requestsOf(operation)} in ${RANGE_SPECS[range].words}.`}
    />
  );
}
