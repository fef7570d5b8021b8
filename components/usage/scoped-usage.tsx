"use client";

import type { ReactNode } from "react";
import { HeadedCard } from "@/components/ui/card";
import { Loaded } from "@/components/ui/states";
import { ZoneName } from "@/components/ui/zone-name";
import type { UsageResponse } from "@/lib/client/types";
import { decisionsOf } from "@/lib/vocabulary";
import styles from "./usage.module.css";
import { UsageChart } from "./usage-chart";
import { describeTooLarge } from "./usage-data";
import { RANGE_SPECS, type RollupRange, rangeQuery, usageSearch } from "./usage-range";
import { useRangeData } from "./use-range-data";
import { useRangeNow } from "./use-range-now";

/** UsageFilters narrow a usage series: one customer's, or the traffic made on one plan. */
export type UsageFilters = { customerId: number } | { planId: number };

/**
 * useScopedUsage reads a customer's or a plan's usage series over a range, refreshed every few
 * seconds; all operations, or one.
 */
export function useScopedUsage(range: RollupRange, filters: UsageFilters & { operation?: string }) {
  const now = useRangeNow();
  const query = rangeQuery(range, now);
  const path = `/usage?${usageSearch(query, filters, true)}`;
  return { now, usage: useRangeData<UsageResponse>("series", path) };
}

/**
 * UsageCard charts a usage series over a range in a card: allowed against denied per step,
 * and, with `allowancePerStep`, the line of what the limit refills in a step. `summary` shows
 * above the chart once the data has come, with the requests refused for their cost, if any.
 */
export function UsageCard({
  title,
  range,
  usage,
  now,
  allowance,
  summary,
  empty,
  headingId,
}: {
  title: string;
  range: RollupRange;
  usage: ReturnType<typeof useScopedUsage>["usage"];
  now: number;
  allowance?: (stepMs: number) => number | null;
  summary?: (data: UsageResponse) => ReactNode;
  empty: string;
  headingId: string;
}) {
  const spec = RANGE_SPECS[range];
  const data = usage.data;
  const totals = data?.totals;
  const all = totals ? decisionsOf(totals) : 0;
  return (
    <HeadedCard
      headingId={headingId}
      title={title}
      note={
        <>
          {spec.words}, times in <ZoneName at={now} className={styles.zone} />
        </>
      }
    >
      <Loaded query={usage} label="Loading usage…">
        {(data) => (
          <>
            {summary?.(data)}
            {data.totals.tooLarge > 0 ? (
              <p className="muted small" data-testid="too-large-note">
                {describeTooLarge(data.totals.tooLarge)}.
              </p>
            ) : null}
            <UsageChart
              data={data}
              range={range}
              label={`${title}: allowed and denied per ${data.granularity}, ${spec.words}`}
              allowance={allowance?.(data.stepMs)}
              height={220}
            />
            {all === 0 ? <p className="muted chart-note">{empty}</p> : null}
          </>
        )}
      </Loaded>
    </HeadedCard>
  );
}
