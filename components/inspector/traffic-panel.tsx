"use client";

import { useQuery } from "@tanstack/react-query";
import { DecisionsChart } from "@/components/charts/decisions-chart";
import { formatCount } from "@/components/charts/number-format";
import { countTotals, toBars } from "@/components/charts/rebin";
import { formatAgo, formatSpan, liveTicks } from "@/components/charts/time-axis";
import { ErrorNote } from "@/components/ui/states";
import { api } from "@/lib/client/api";
import type { TrafficResponse } from "@/lib/client/types";
import { formatClock } from "@/lib/time-format";
import styles from "./inspector.module.css";

/** trafficQueryKey is the key of a customer's traffic over a window (seconds). */
export function trafficQueryKey(customerId: number, seconds: number) {
  return ["traffic", { customerId, seconds }] as const;
}

/** TrafficPanel charts a customer's allowed and denied decisions per second over the window. */
export function TrafficPanel({ customerId, windowMs }: { customerId: number; windowMs: number }) {
  const seconds = Math.round(windowMs / 1000);
  const traffic = useQuery({
    queryKey: trafficQueryKey(customerId, seconds),
    queryFn: () => api<TrafficResponse>(`/traffic?seconds=${seconds}&customerId=${customerId}`),
    refetchInterval: 1_000,
  });
  const points = traffic.data?.points ?? [];
  const totals = countTotals(points);
  // The axis ends with the current second, so its bar shows whole.
  const end = (points.at(-1)?.t ?? traffic.data?.now ?? 0) + 1_000;
  return (
    <section className="card" aria-labelledby="traffic-heading">
      <div className={styles.panelHead}>
        <h2 id="traffic-heading">Decisions</h2>
        <span className="muted">last {formatSpan(windowMs)}, reads and writes</span>
      </div>
      <ErrorNote error={traffic.error} />
      <div className={styles.totals}>
        <span>
          <span className={styles.dotOk} aria-hidden="true" />
          Allowed <strong data-testid="traffic-allowed">{formatCount(totals.allowed)}</strong>
        </span>
        <span>
          <span className={styles.dotBad} aria-hidden="true" />
          Denied <strong data-testid="traffic-denied">{formatCount(totals.denied)}</strong>
        </span>
      </div>
      <DecisionsChart
        bars={toBars(points, 1_000)}
        domain={[end - windowMs, end]}
        ticks={liveTicks(end, windowMs)}
        formatTick={(x) => formatAgo(x, end)}
        formatLabel={(bar) => (bar ? formatClock(bar.t) : "")}
        label="Allowed and denied decisions per second"
        height={190}
        // The totals above, with their swatches, are the key. Regression: a second legend.
        legend={false}
      />
    </section>
  );
}
