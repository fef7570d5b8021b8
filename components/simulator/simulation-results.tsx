"use client";

import { DecisionsChart } from "@/components/charts/decisions-chart";
import { formatCount, formatShare } from "@/components/charts/number-format";
import { rebin, slotWidthFor, toBars } from "@/components/charts/rebin";
import { formatSpan, offsetTicks } from "@/components/charts/time-axis";
import { describeLimit, describePolicyLimits } from "@/lib/format";
import type { SimulatedDryRun, SimulationResult } from "@/lib/simulator/simulate";
import type { SimulationInput } from "@/lib/simulator/simulation.schema";
import type { LimitShape } from "@/lib/vocabulary";
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
 * neverPassesNote says which limits a cost can never pass, and what the server answers then:
 * "A cost of 1,000,000 can never pass the 10 per second limit: ...". Undefined when every
 * enforced limit can hold the cost.
 */
function neverPassesNote(cost: number, tooLarge: readonly LimitShape[]): string | undefined {
  if (tooLarge.length === 0) return undefined;
  const names = tooLarge.map(describeLimit);
  const last = names.pop() as string;
  const limits =
    names.length === 0 ? `the ${last} limit` : `the ${names.join(", ")} and ${last} limits`;
  return `A cost of ${formatCount(cost)} can never pass ${limits}: the server answers 413 to every such request, however long it waits.`;
}

/** Figure is one of a run's totals: its value (written) under its label, in the series' colour if given. */
function Figure({
  label,
  value,
  className,
  testId,
}: {
  label: string;
  value: string;
  className?: string;
  testId: string;
}) {
  return (
    <dl className="stat">
      <dt>{label}</dt>
      <dd className={className} data-testid={testId}>
        {value}
      </dd>
    </dl>
  );
}

/** STALE_ID names the note that marks a result as older than the fields above it. */
const STALE_ID = "sim-stale";

/**
 * SimulationResults shows a run's totals (the enforced limits' decisions) as labelled numbers,
 * what the dry-run limits would have refused, and the decisions over time; a cost no request can
 * pay is said in words (the server's 413). `stale` marks it as the answer to an earlier run's
 * inputs, when the fields have since failed to run. Regression: an invalid cost showed its error
 * above the old result, as if that were the answer to it.
 */
export function SimulationResults({
  input,
  result,
  stale = false,
}: {
  input: SimulationInput;
  result: SimulationResult;
  stale?: boolean;
}) {
  const width = slotWidthFor(result.seconds.length, MAX_BARS);
  const slots = rebin(result.seconds, width);
  const slotMs = width * 1_000;
  const spanMs = Math.max(slots.length * slotMs, 1_000);
  const { totals } = result;
  const neverPasses = neverPassesNote(input.cost, result.tooLarge);
  return (
    <section
      className={`card${stale ? ` ${styles.stale}` : ""}`}
      aria-labelledby="sim-results-heading"
      aria-describedby={stale ? STALE_ID : undefined}
    >
      <h2 id="sim-results-heading">Result</h2>
      {stale ? (
        <p id={STALE_ID} className="notice info" data-testid="sim-stale">
          Out of date: this result is for the inputs of the last run, not the fields above.
        </p>
      ) : null}
      <p className={styles.summary}>
        {input.limits.length > 0 ? describePolicyLimits(input.limits) : "No limits"} ·{" "}
        {describePattern(input.pattern)} · cost {formatCount(input.cost)} per request. Every bucket
        starts full.
      </p>
      <div className={styles.stats}>
        <Figure label="Requests" value={formatCount(totals.requests)} testId="sim-requests" />
        <Figure
          label="Allowed"
          value={formatCount(totals.allowed)}
          className={styles.allowed}
          testId="sim-allowed"
        />
        <Figure
          label="Denied"
          value={formatCount(totals.denied)}
          className={styles.denied}
          testId="sim-denied"
        />
        <Figure
          label="Allowed share"
          value={formatShare(totals.allowedShare)}
          testId="sim-allowed-share"
        />
      </div>
      {neverPasses ? (
        <p className="notice error" data-testid="sim-never-passes">
          {neverPasses}
        </p>
      ) : null}
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
