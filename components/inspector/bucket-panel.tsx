import { useMemo } from "react";
import { levelSteps, lowestOf } from "@/components/charts/level-steps";
import { formatCount } from "@/components/charts/number-format";
import { RemainingChart } from "@/components/charts/remaining-chart";
import { samplesFrom } from "@/components/charts/sample-window";
import { formatSpan } from "@/components/charts/time-axis";
import type { DecisionView } from "@/lib/client/types";
import { describeLimit } from "@/lib/format";
import { formatClock } from "@/lib/time-format";
import type { Operation } from "@/lib/vocabulary";
import { formatWait } from "./format";
import type { RemainingSample } from "./history";
import styles from "./inspector.module.css";
import { useRunningNow } from "./use-running-now";

/** CHART_STEPS: refills are drawn at most this many times across the window (about a pixel). */
const CHART_STEPS = 600;

/**
 * BucketPanel shows one bucket: its remaining tokens, capacity and retry-after as labelled
 * numbers (test ids "remaining-read-0", "capacity-read-0", "retry-after-read-0"), a live chart
 * of its level (refilling between samples as the limiter refills it, up to the latest peek's
 * time `peekedAt` run on by the browser's clock) and the lowest it fell to over the window
 * ("lowest-read-0"). Only the chart moves between peeks: the panel keeps its own running clock.
 */
export function BucketPanel({
  operation,
  index,
  bucket,
  samples,
  peekedAt,
  windowMs,
}: {
  operation: Operation;
  index: number;
  bucket: DecisionView["buckets"][number];
  samples: readonly RemainingSample[];
  peekedAt: number;
  windowMs: number;
}) {
  const now = useRunningNow(peekedAt, (samples.at(-1)?.fullInMs ?? 0) > 0);
  const id = `${operation}-${index}`;
  const title = describeLimit(bucket.limit);
  const fromMs = now - windowMs;
  const points = useMemo(
    () => levelSteps(bucket.limit, samplesFrom(samples, fromMs), now, windowMs / CHART_STEPS),
    [bucket.limit, samples, fromMs, now, windowMs],
  );
  const lowest = lowestOf(points, fromMs, now);
  return (
    <section className={styles.bucket} aria-label={`${operation} bucket ${index + 1}: ${title}`}>
      <h3>{title}</h3>
      <dl className={styles.numbers}>
        <div>
          <dt>Remaining</dt>
          <dd data-testid={`remaining-${id}`}>{formatCount(bucket.remaining)}</dd>
        </div>
        <div>
          <dt>Capacity</dt>
          <dd data-testid={`capacity-${id}`}>{formatCount(bucket.capacity)}</dd>
        </div>
        <div>
          <dt>Retry after</dt>
          <dd data-testid={`retry-after-${id}`}>{formatWait(bucket.retryAfterMs)}</dd>
        </div>
      </dl>
      <RemainingChart
        points={points}
        samples={samples.length}
        capacity={bucket.capacity}
        now={now}
        windowMs={windowMs}
        label={`Remaining tokens of ${operation} bucket ${index + 1} over time`}
      />
      {lowest ? (
        <p className={styles.lowest} data-testid={`lowest-${id}`}>
          Lowest in the last {formatSpan(windowMs)}:{" "}
          <strong className={lowest.remaining === 0 ? "bad-text" : undefined}>
            {formatCount(lowest.remaining)}
          </strong>{" "}
          of {formatCount(bucket.capacity)}, at {formatClock(lowest.t)}
        </p>
      ) : null}
    </section>
  );
}
