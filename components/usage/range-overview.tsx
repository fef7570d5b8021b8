"use client";

import { formatCount, formatShare } from "@/components/charts/number-format";
import { HeadedCard } from "@/components/ui/card";
import { Stat } from "@/components/ui/stat";
import { Loaded } from "@/components/ui/states";
import { ZoneName } from "@/components/ui/zone-name";
import type {
  NearLimitResponse,
  PlansUsageResponse,
  TopCustomersResponse,
  UsageResponse,
} from "@/lib/client/types";
import { formatDateMinute } from "@/lib/time-format";
import { decisionsOf } from "@/lib/vocabulary";
import styles from "./usage.module.css";
import { UsageChart } from "./usage-chart";
import { describeTooLarge, NEAR_LIMIT_REPLAY, nearLimitNote } from "./usage-data";
import { RANGE_SPECS, type RollupRange, rangeQuery, usageSearch } from "./usage-range";
import { NearLimitTable, PlansUsageTable, TopCustomersTable } from "./usage-tables";
import { useRangeData } from "./use-range-data";
import { useRangeNow } from "./use-range-now";

/**
 * RangeOverview is the overview over a past range, read from the usage rollups: totals, allowed
 * against denied per step, per plan, the customers refused and using most, those near their
 * limit, and the range as CSV. Times are in the operator's zone, which it names.
 */
export function RangeOverview({ range }: { range: RollupRange }) {
  const now = useRangeNow();
  const query = rangeQuery(range, now);
  const spec = RANGE_SPECS[range];
  const search = usageSearch(query);
  const usage = useRangeData<UsageResponse>("series", `/usage?${usageSearch(query, {}, true)}`);
  const plans = useRangeData<PlansUsageResponse>("plans", `/usage/plans?${search}`);
  const top = useRangeData<TopCustomersResponse>("top", `/usage/top?${search}&limit=10`);
  const near = useRangeData<NearLimitResponse>("near", `/usage/near-limit?${search}&limit=50`);
  const totals = usage.data?.totals;
  const all = totals ? decisionsOf(totals) : 0;

  return (
    <>
      <section className="grid cols-4 stats" aria-label={`Totals over ${spec.words}`}>
        <Stat label={`Requests · ${spec.label}`} value={totals && formatCount(all)} />
        <Stat
          label={`Allowed · ${spec.label}`}
          value={totals && formatCount(totals.allowed)}
          tone="ok"
          testId="range-allowed"
        />
        <Stat
          label={`Denied · ${spec.label}`}
          value={totals && formatCount(totals.denied)}
          tone="bad"
          testId="range-denied"
        />
        <Stat
          label={`Denied share · ${spec.label}`}
          value={totals && (all > 0 ? formatShare(totals.denied / all) : "–")}
        />
      </section>
      {totals && totals.tooLarge > 0 ? (
        <p className="notice info" data-testid="too-large-note">
          {describeTooLarge(totals.tooLarge)} or near a limit.
        </p>
      ) : null}

      <HeadedCard
        headingId="range-chart-heading"
        title={`Allowed vs denied per ${usage.data?.granularity ?? "step"}`}
        note={
          <>
            {spec.words}, times in <ZoneName at={now} className={styles.zone} />
          </>
        }
      >
        <Loaded query={usage} label="Loading usage…">
          {(data) => (
            <>
              <UsageChart
                data={data}
                range={range}
                label={`Allowed and denied decisions per ${data.granularity}, ${spec.words}`}
              />
              {all === 0 ? (
                <p className="muted chart-note">No API requests in {spec.words}.</p>
              ) : null}
            </>
          )}
        </Loaded>
      </HeadedCard>

      <HeadedCard headingId="plans-heading" title="Per plan" note={spec.words}>
        <Loaded query={plans}>
          {(data) => <PlansUsageTable plans={data.plans} words={spec.words} />}
        </Loaded>
      </HeadedCard>

      <HeadedCard
        headingId="near-heading"
        title="Customers near their limit"
        note={`peak use of 80% or more of a limit, or refused, ${spec.words}`}
      >
        <Loaded query={near}>
          {(data) => (
            <>
              <NearLimitTable
                customers={data.customers}
                words={spec.words}
                resolutionMs={data.resolutionMs}
              />
              <NearLimitNote near={data} />
              <p className="muted small chart-note" data-testid="near-limit-replay">
                {NEAR_LIMIT_REPLAY}
              </p>
            </>
          )}
        </Loaded>
      </HeadedCard>

      <div className={`grid cols-2 ${styles.tables}`}>
        <HeadedCard headingId="top-denials-heading" title="Refused most" note={spec.words}>
          <Loaded query={top}>
            {(data) => <TopCustomersTable rows={data.byDenials} by="denials" words={spec.words} />}
          </Loaded>
        </HeadedCard>
        <HeadedCard
          headingId="top-usage-heading"
          title="Using most"
          note={`tokens taken, ${spec.words}`}
        >
          <Loaded query={top}>
            {(data) => <TopCustomersTable rows={data.byUsage} by="usage" words={spec.words} />}
          </Loaded>
        </HeadedCard>
      </div>
    </>
  );
}

/** NearLimitNote says how limits shorter than the rollups' step were judged over the range. */
function NearLimitNote({ near }: { near: NearLimitResponse }) {
  const note = nearLimitNote(near, formatDateMinute);
  return note ? (
    <p className="muted small chart-note" data-testid="near-limit-note">
      {note}
    </p>
  ) : null;
}
