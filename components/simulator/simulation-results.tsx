"use client";

import { DecisionsChart } from "@/components/charts/decisions-chart";
import { formatCount, formatShare } from "@/components/charts/number-format";
import { rebin, slotWidthFor, toBars } from "@/components/charts/rebin";
import { formatSpan, offsetTicks } from "@/components/charts/time-axis";
import { describeLimit, describePolicyLimits } from "@/lib/format";
import type { SimulatedDryRun, SimulationResult } from "@/lib/simulator/simulate";
import type { SimulationInput } from "@/lib/simulator/simulation.schema";
import { describePattern } from "./pattern-draft";
import styles from "./simulator.module.css";

/** MAX_BARS caps the bars drawn; longer simulations are summed into wider slots. */
const MAX_BARS = 120;

/**
 * DryRunResults says what the dry-run limits would have refused of the allowed requests, in all
 * and limit by limit; they refused nothing, so the totals above are the enforced limits' alone.
 */
function DryRunResults({ dryRun, allowed }: { dryRun: SimulatedDryRun; allowed: number }) {
  const ofAllowed = (n: number) =>
    `${formatCount(n)} of ${formatCount(allowed)} allowed${allowed > 0 ? ` (${formatShare(n / allowed)})` : ""}`;
  return (
    <section aria-labelledby="sim-dry-run-heading" className={styles.dryRun}>
      <h3 id="sim-dry-run-heading">Dry-run limits</h3>
      <p className={styles.summary} data-testid="sim-dry-run-total">
        Never refused: had they been enforced, they would have refused{" "}
        {ofAllowed(dryRun.wouldRefuse)}.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Limit</th>
            <th scope="col">Would have refused</th>
          </tr>
        </thead>
        <tbody>
          {dryRun.limits.map(({ limit, wouldRefuse }) => (
            <tr key={`${limit.count}/${limit.periodMs}`}>
              <td>
                {describeLimit(limit)} <span className="badge">dry run</span>
              </td>
              <td className="num">{ofAllowed(wouldRefuse)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * SimulationResults shows a run's totals (the enforced limits' decisions) as labelled numbers,
 * what the dry-run limits would have refused, and the decisions over time.
 */
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
        {input.limits.length > 0 ? describePolicyLimits(input.limits) : "No limits"} ·{" "}
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
      {result.dryRun.limits.length > 0 ? (
        <DryRunResults dryRun={result.dryRun} allowed={totals.allowed} />
      ) : null}
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
