"use client";

import { LiveOverview } from "@/components/overview/live-overview";
import { IgnoredParams } from "@/components/ui/paged-list";
import { PageHeader } from "@/components/ui/states";
import { useUrlQuery } from "@/components/ui/use-url-query";
import { CsvDownload } from "@/components/usage/csv-download";
import { RangeOverview } from "@/components/usage/range-overview";
import { RangePicker } from "@/components/usage/range-picker";
import { overviewQuerySchema, RANGE_SPECS, USAGE_RANGES } from "@/components/usage/usage-range";

/**
 * OverviewDashboard is the overview: live (per second, the last minutes) or a range read from
 * the usage rollups (1 h, 24 h, 7 d, 30 d). The range is in the URL (`?range=24h`).
 */
export function OverviewDashboard() {
  const url = useUrlQuery(overviewQuerySchema);
  const range = url.value.range;
  return (
    <>
      <PageHeader
        title="Overview"
        description={
          range === "live"
            ? "Decisions across all customers, live. Updated every second."
            : `Decisions across all customers over ${RANGE_SPECS[range].words}. Updated every 5 seconds.`
        }
        actions={
          <>
            <RangePicker
              ranges={USAGE_RANGES}
              value={range}
              onChange={(next) => url.set({ range: next === "live" ? undefined : next }, "push")}
            />
            {range === "live" ? null : <CsvDownload range={range} />}
          </>
        }
      />
      {/* Regression: ?range=5y fell back to Live and said nothing, as the lists do not. */}
      <IgnoredParams invalid={url.invalid} />
      {range === "live" ? <LiveOverview /> : <RangeOverview key={range} range={range} />}
    </>
  );
}
