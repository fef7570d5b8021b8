"use client";

import { useQuery } from "@tanstack/react-query";
import { formatCount } from "@/components/charts/number-format";
import { Stat } from "@/components/ui/stat";
import { Loaded } from "@/components/ui/states";
import { api } from "@/lib/client/api";
import type { TrafficResponse } from "@/lib/client/types";
import { RefusedTable } from "./refused-table";
import { TrafficChart } from "./traffic-chart";
import { formatShare, sumPoints, xDomain } from "./traffic-chart-data";

/**
 * LIVE_WINDOW is the one window of the live view: its cards, its chart and its most-refused
 * table all count these seconds, and say so. Regression: the cards summed 5 minutes over a
 * chart of 2, so they disagreed with what was drawn under them.
 */
export const LIVE_WINDOW = {
  seconds: 120,
  short: "2 min",
  title: "Last 2 minutes",
  words: "the last 2 minutes",
} as const;

/** LiveOverview polls the traffic log once a second: totals, a live chart, the most refused. */
export function LiveOverview() {
  const live = useQuery({
    queryKey: ["traffic", LIVE_WINDOW.seconds],
    queryFn: () => api<TrafficResponse>(`/traffic?seconds=${LIVE_WINDOW.seconds}`),
    refetchInterval: 1_000,
    staleTime: 0,
  });
  const totals = live.data ? sumPoints(live.data.points) : undefined;
  const per = ` · ${LIVE_WINDOW.short}`;

  return (
    <>
      <section className="grid cols-4 stats" aria-label={`Totals of ${LIVE_WINDOW.words}`}>
        <Stat label={`Requests${per}`} value={totals && formatCount(totals.total)} />
        <Stat label={`Allowed${per}`} value={totals && formatCount(totals.allowed)} tone="ok" />
        <Stat label={`Denied${per}`} value={totals && formatCount(totals.denied)} tone="bad" />
        <Stat label={`Denied share${per}`} value={totals && formatShare(totals.deniedShare)} />
      </section>

      <section className="card">
        <div className="card-header">
          <h2>Allowed vs denied per second</h2>
          <span className="muted">{LIVE_WINDOW.title}, as the totals above</span>
        </div>
        <Loaded query={live} label="Loading traffic…">
          {(data) => (
            <>
              <TrafficChart points={data.points} domain={xDomain(data.now, data.seconds)} />
              {totals?.total === 0 ? (
                <p className="muted chart-note">No API requests in {LIVE_WINDOW.words}.</p>
              ) : null}
            </>
          )}
        </Loaded>
      </section>

      <section className="card">
        <div className="card-header">
          <h2>Refused most · {LIVE_WINDOW.title.toLowerCase()}</h2>
        </div>
        <Loaded query={live}>
          {(data) => <RefusedTable totals={data.totals} words={LIVE_WINDOW.words} />}
        </Loaded>
      </section>
    </>
  );
}
