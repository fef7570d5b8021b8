import { formatShare } from "@/components/charts/number-format";
import type { DryRunLimitReport } from "@/lib/client/types";
import { countOf, describeLimit } from "@/lib/format";

const PLURAL = { read: "reads", write: "writes" } as const;

/**
 * describeAgo says how long before `now` a time was, roughly: "less than a minute ago", "5 min
 * ago", "2 h ago", "3 days ago" (whole units, rounded down).
 */
export function describeAgo(ms: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - ms) / 60_000);
  if (minutes < 1) return "less than a minute ago";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/**
 * dryRunVerdict says what a dry-run limit would have done over the range in words: "This limit
 * would have refused 3.2% of reads, 41 customers, over the last 24 h" (with the refusals
 * counted), or that there was no traffic to judge it on. A limit added within the range is
 * judged on the traffic since: "…, since it was added 2 h ago (…)", `now` (ms) saying how long.
 */
export function dryRunVerdict(
  report: Pick<
    DryRunLimitReport,
    "operation" | "refused" | "decisions" | "share" | "customers" | "state"
  > &
    Partial<Pick<DryRunLimitReport, "sinceMs">>,
  words = "the last 24 h",
  now?: number,
): string {
  const ops = PLURAL[report.operation];
  const subject =
    report.state === "dry-run" ? "This limit would have refused" : "It would have refused";
  const since = report.sinceMs ?? null;
  const over =
    since !== null && now !== undefined
      ? `since it was added ${describeAgo(since, now)}`
      : `over ${words}`;
  if (report.share === null || report.decisions === 0) {
    return `No ${ops} ${over}: nothing to judge this limit on yet.`;
  }
  const customers = countOf(report.customers, "customer");
  return `${subject} ${formatShare(report.share)} of ${ops}, ${customers}, ${over} (${report.refused.toLocaleString("en-US")} of ${report.decisions.toLocaleString("en-US")}).`;
}

/** dryRunTitle names a tried limit: "Reads: 3 per hour", with whose it is on a customer's page. */
export function dryRunTitle(
  report: Pick<DryRunLimitReport, "operation" | "count" | "periodMs" | "source">,
  withSource = false,
): string {
  const op = report.operation === "read" ? "Reads" : "Writes";
  const source = withSource ? (report.source === "override" ? " (override)" : " (plan)") : "";
  return `${op}: ${describeLimit(report)}${source}`;
}

/** DRY_RUN_STATES word what became of a tried limit, for its badge. */
export const DRY_RUN_STATES = {
  "dry-run": "dry run",
  enforced: "enforced since",
  removed: "removed since",
} as const;
