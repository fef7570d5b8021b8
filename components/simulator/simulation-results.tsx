"use client";

import { DecisionsChart } from "@/components/charts/decisions-chart";
import { formatCount, formatShare } from "@/components/charts/number-format";
import { rebin, slotWidthFor, toBars } from "@/components/charts/rebin";
import { formatSpan, offsetTicks } from "@/components/charts/time-axis";
import { describeLimits } from "@/lib/format";
import type { SimulationResult } from "@/lib/simulator/simulate";
import type { SimulationInput } from "@/lib/simulator/simulation.schema";
import { describePattern } from "./pattern-draft";
import styles from "./simulator.module.css";

/** MAX_BARS caps the bars drawn; longer simulations are summed into wider slots. */
const MAX_BARS = 120;

/** SimulationResults shows a run's totals as labelled numbers and its decisions over time. */
export function SimulationResults({
  input,
  result,
}: {
  input: SimulationInput;
  result: SimulationResult;
}) {
  const width = slotWidthFor(result.seconds.length, MAX_BARS);
  const slots = rebin(result.seconds, width);
  const slotMs = width * 1_000;
  const spanMs = Math.max(slots.length * slotMs, 1_000);
  const { totals } = result;
  return (
    <section className="card" aria-labelledby="sim-results-heading">
      <h2 id="sim-results-heading">Result</h2>
      <p className={styles.summary}>
        {input.limits.length > 0 ? describeLimits(input.limits) : "No limits"} ·{" "}
        {describePattern(input.pattern)} · cost {formatCount(input.cost)} per request. Every bucket
        starts full.
      </p>
      <div className={styles.stats}>
        <dl className="stat">
          <dt>Requests</dt>
          <dd data-testid="sim-requests">{formatCount(totals.requests)}</dd>
        </dl>
        <dl className="stat">
          <dt>Allowed</dt>
          <dd className={styles.allowed} data-testid="sim-allowed">
            {formatCount(totals.allowed)}
          </dd>
        </dl>
        <dl className="stat">
          <dt>Denied</dt>
          <dd className={styles.denied} data-testid="sim-denied">
            {formatCount(totals.denied)}
          </dd>
        </dl>
        <dl className="stat">
          <dt>Allowed share</dt>
          <dd data-testid="sim-allowed-share">{formatShare(totals.allowedShare)}</dd>
        </dl>
      </div>
      <h3>Decisions per {slotMs === 1_000 ? "second" : formatSpan(slotMs)}</h3>
      <DecisionsChart
        bars={toBars(slots, slotMs)}
        domain={[0, spanMs]}
        ticks={offsetTicks(spanMs)}
        formatTick={(x) => formatSpan(x)}
        formatLabel={(bar) => (bar ? `${formatSpan(bar.t)} to ${formatSpan(bar.t + slotMs)}` : "")}
        label="Simulated allowed and denied requests over time"
        height={240}
      />
    </section>
  );
}
