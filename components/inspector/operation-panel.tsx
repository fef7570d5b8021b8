import { classTitle } from "@/components/classes/class-words";
import type { DecisionView } from "@/lib/client/types";
import type { Operation } from "@/lib/vocabulary";
import { BucketPanel } from "./bucket-panel";
import { type InspectorHistory, seriesKey } from "./history";
import styles from "./inspector.module.css";

/**
 * OperationPanel shows one operation's live buckets, and whether the plan or an override sets
 * them. `replayed` says whether the charts' start was replayed from recorded decisions.
 */
export function OperationPanel({
  operation,
  decision,
  history,
  windowMs,
  replayed,
}: {
  operation: Operation;
  decision: DecisionView | undefined;
  history: InspectorHistory;
  windowMs: number;
  replayed: boolean;
}) {
  const headingId = `live-${operation}`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className={styles.panelHead}>
        <h2 id={headingId}>{classTitle(operation)}</h2>
        {decision ? (
          <span
            className={`badge ${decision.source === "override" ? styles.override : ""}`}
            data-testid={`source-${operation}`}
            title={
              decision.source === "override"
                ? "An override replaces the plan's limits"
                : "The plan's limits apply"
            }
          >
            {decision.source}
          </span>
        ) : null}
      </div>
      {!decision ? (
        <p className={styles.sub}>
          <span className="spinner" /> Peeking at the buckets…
        </p>
      ) : decision.buckets.length === 0 ? (
        <p className={styles.sub}>No limits: every {operation} is allowed.</p>
      ) : (
        <>
          <p className={styles.sub}>
            {decision.buckets.length > 1 ? "A request needs a token from every bucket. " : ""}
            Peeked every second; peeking takes no tokens.
            {replayed
              ? " Before the page opened, replayed from the recorded decisions under the current limits."
              : ""}
          </p>
          {decision.buckets.map((bucket, index) => {
            const key = seriesKey(operation, index, bucket.limit);
            return (
              <BucketPanel
                key={key}
                operation={operation}
                index={index}
                bucket={bucket}
                samples={history.series[key] ?? []}
                peekedAt={history.now}
                windowMs={windowMs}
              />
            );
          })}
        </>
      )}
    </section>
  );
}
