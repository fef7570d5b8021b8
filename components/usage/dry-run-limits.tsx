"use client";

import Link from "next/link";
import { formatCount } from "@/components/charts/number-format";
import type { DryRunLimitReport } from "@/lib/client/types";
import { countOf } from "@/lib/format";
import { formatDateTime } from "@/lib/time-format";
import { DRY_RUN_STATES, dryRunTitle, dryRunVerdict, type VerdictRange } from "./dry-run-words";
import styles from "./usage.module.css";

/** SHOWN_CUSTOMERS is how many of the refused customers a report lists. */
const SHOWN_CUSTOMERS = 10;

/**
 * DryRunLimits lists what each tried limit would have refused where it was tried within the
 * range (its end being the present), what it is now and since when, and which customers, most
 * refused first (each linking to its page).
 */
export function DryRunLimits({
  limits,
  range,
  withSource = false,
}: {
  limits: readonly DryRunLimitReport[];
  range: VerdictRange;
  withSource?: boolean;
}) {
  return (
    <>
      {limits.map((report) => {
        const title = dryRunTitle(report, withSource);
        return (
          <article
            key={`${report.operation}|${report.count}|${report.periodMs}|${report.source}`}
            className={styles.dryRun}
            aria-label={title}
            data-testid="dry-run-limit"
          >
            <h3>
              {title}{" "}
              <span className={`badge${report.state === "dry-run" ? "" : " ok"}`}>
                {DRY_RUN_STATES[report.state]}
              </span>
              {report.stateSinceMs !== null ? (
                <span className="muted small" data-testid="dry-run-state-since">
                  {" "}
                  since{" "}
                  <time dateTime={new Date(report.stateSinceMs).toISOString()}>
                    {formatDateTime(report.stateSinceMs)}
                  </time>
                </span>
              ) : null}
            </h3>
            <p className={styles.verdict} data-testid="dry-run-verdict">
              {dryRunVerdict(report, undefined, range)}
            </p>
            {report.top.length > 0 ? (
              <>
                <p className="muted small">Customers it would have refused, most first:</p>
                <ul className={styles.customerList}>
                  {report.top.slice(0, SHOWN_CUSTOMERS).map((c) => (
                    <li key={c.customerId}>
                      <Link href={`/customers/${c.customerId}`}>{c.name}</Link>{" "}
                      <span className="muted num">{countOf(c.refused, "request")}</span>
                    </li>
                  ))}
                </ul>
                {report.customers > SHOWN_CUSTOMERS ? (
                  <p className="muted small">
                    and {formatCount(report.customers - SHOWN_CUSTOMERS)} more.
                  </p>
                ) : null}
              </>
            ) : null}
          </article>
        );
      })}
    </>
  );
}
