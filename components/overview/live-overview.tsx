"use client";

import { useQuery } from "@tanstack/react-query";
import { Stat } from "@/components/ui/stat";
import { ErrorNote, Loading } from "@/components/ui/states";
import { api } from "@/lib/client/api";
import type { TrafficResponse } from "@/lib/client/types";
import { RefusedTable } from "./refused-table";
import { TrafficChart } from "./traffic-chart";
import { formatCount, formatShare, sumPoints, xDomain } from "./traffic-chart-data";

const CHART_SECONDS = 120;
const TOTALS_SECONDS = 300;

function useTraffic(seconds: number, refetchInterval: number) {
  return useQuery({
    queryKey: ["traffic", seconds],
    queryFn: () => api<TrafficResponse>(`/traffic?seconds=${seconds}`),
    refetchInterval,
    staleTime: 0,
  });
}

/** LiveOverview polls the traffic log: a live chart, 5-minute totals, the most refused. */
export function LiveOverview() {
  const live = useTraffic(CHART_SECONDS, 1_000);
  const recent = useTraffic(TOTALS_SECONDS, 2_000);
  const totals = recent.data ? sumPoints(recent.data.points) : undefined;
  const liveTotals = live.data ? sumPoints(live.data.points) : undefined;

  return (
    <>
      <section className="grid cols-4 stats" aria-label="Last 5 minutes">
        <Stat label="Requests · 5 min" value={totals && formatCount(totals.total)} />
        <Stat label="Allowed · 5 min" value={totals && formatCount(totals.allowed)} tone="ok" />
        <Stat label="Denied · 5 min" value={totals && formatCount(totals.denied)} tone="bad" />
        <Stat label="Denied share · 5 min" value={totals && formatShare(totals.deniedShare)} />
      </section>

      <section className="card">
        <div className="card-header">
          <h2>Allowed vs denied per second</h2>
          <span className="muted">Last 2 minutes</span>
        </div>
        <ErrorNote error={live.error} />
        {live.data ? (
          <>
            <TrafficChart
              points={live.data.points}
              domain={xDomain(live.data.now, live.data.seconds)}
            />
            {liveTotals?.total === 0 ? (
              <p className="muted chart-note">No API requests in the last 2 minutes.</p>
            ) : null}
          </>
        ) : live.isPending ? (
          <Loading label="Loading traffic…" />
        ) : null}
      </section>

      <section className="card">
        <div className="card-header">
          <h2>Refused most · last 5 minutes</h2>
        </div>
        <ErrorNote error={recent.error} />
        {recent.data ? (
          <RefusedTable totals={recent.data.totals} />
        ) : recent.isPending ? (
          <Loading />
        ) : null}
      </section>
    </>
  );
}
