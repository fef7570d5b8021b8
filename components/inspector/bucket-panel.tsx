import { formatCount } from "@/components/charts/number-format";
import { RemainingChart } from "@/components/charts/remaining-chart";
import type { DecisionView } from "@/lib/client/types";
import { describeLimit } from "@/lib/format";
import type { Operation } from "@/lib/vocabulary";
import { formatWait } from "./format";
import type { RemainingSample } from "./history";
import styles from "./inspector.module.css";

/**
 * BucketPanel shows one bucket: its remaining tokens, capacity and retry-after as labelled
 * numbers (test ids "remaining-read-0", "capacity-read-0", "retry-after-read-0") and a live chart.
 */
export function BucketPanel({
  operation,
  index,
  bucket,
  samples,
  now,
  windowMs,
}: {
  operation: Operation;
  index: number;
  bucket: DecisionView["buckets"][number];
  samples: readonly RemainingSample[];
  now: number;
  windowMs: number;
}) {
  const id = `${operation}-${index}`;
  const title = describeLimit(bucket.limit);
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
        samples={samples}
        capacity={bucket.capacity}
        now={now}
        windowMs={windowMs}
        label={`Remaining tokens of ${operation} bucket ${index + 1} over time`}
      />
    </section>
  );
}
