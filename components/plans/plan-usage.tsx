"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { formatCount, formatShare } from "@/components/charts/number-format";
import { Stat } from "@/components/ui/stat";
import { ErrorNote } from "@/components/ui/states";
import { RangePicker } from "@/components/usage/range-picker";
import { UsageCard, useScopedUsage } from "@/components/usage/scoped-usage";
import {
  RANGE_SPECS,
  ROLLUP_RANGES,
  type RollupRange,
  rangeQuery,
  usageSearch,
} from "@/components/usage/usage-range";
import { RANGE_REFRESH_MS } from "@/components/usage/use-range-now";
import { api } from "@/lib/client/api";
import type { PlansUsageResponse } from "@/lib/client/types";
import { decisionsOf } from "@/lib/vocabulary";

/**
 * PlanUsage is a plan's traffic over a range: how many customers it has, how many sent
 * requests and how many were refused, its combined decisions and tokens, and the series.
 */
export function PlanUsage({
  planId,
  range,
  onRange,
}: {
  planId: number;
  range: RollupRange;
  onRange: (range: RollupRange) => void;
}) {
  const { now, usage } = useScopedUsage(range, { planId });
  const path = `/usage/plans?${usageSearch(rangeQuery(range, now), { planId })}`;
  const aggregate = useQuery({
    queryKey: ["usage", "plans", path],
    queryFn: () => api<PlansUsageResponse>(path),
    placeholderData: keepPreviousData,
    refetchInterval: RANGE_REFRESH_MS,
  });
  const plan = aggregate.data?.plans.find((p) => p.planId === planId);
  const label = RANGE_SPECS[range].label;
  const all = plan ? decisionsOf(plan) : 0;
  return (
    <>
      <div className="page-header">
        <h2>Usage</h2>
        <RangePicker ranges={ROLLUP_RANGES} value={range} onChange={onRange} />
      </div>
      <ErrorNote error={aggregate.error} />
      {/* Six figures share their rows evenly (six-stats). Regression: five and one at 1280 px. */}
      <div className="six-stats">
        <section className="grid stats" aria-label={`The plan over ${RANGE_SPECS[range].words}`}>
          <Stat
            label="Customers"
            value={plan && formatCount(plan.customers)}
            testId="plan-customers"
          />
          <Stat
            label={`Active · ${label}`}
            value={plan && formatCount(plan.activeCustomers)}
            testId="plan-active"
          />
          <Stat
            label={`Requests · ${label}`}
            value={plan && `${formatCount(all)}`}
            testId="plan-requests"
          />
          <Stat
            label={`Denied · ${label}`}
            value={
              plan &&
              `${formatCount(plan.denied)}${all > 0 ? ` (${formatShare(plan.denied / all)})` : ""}`
            }
            tone="bad"
            testId="plan-denied"
          />
          <Stat
            label={`Refused customers · ${label}`}
            value={plan && formatCount(plan.refusedCustomers)}
            testId="plan-refused"
          />
          <Stat label={`Tokens taken · ${label}`} value={plan && formatCount(plan.tokensTaken)} />
        </section>
      </div>
      <UsageCard
        title="The plan's traffic"
        headingId="plan-usage-heading"
        range={range}
        usage={usage}
        now={now}
        empty={`No requests on this plan in ${RANGE_SPECS[range].words}.`}
      />
    </>
  );
}
