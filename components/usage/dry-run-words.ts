import { formatShare } from "@/components/charts/number-format";
import { classTitle } from "@/components/classes/class-words";
import type { DryRunLimitReport, DryRunState } from "@/lib/client/types";
import { countOf, describeLimit } from "@/lib/format";

const PLURAL: Readonly<Record<string, string>> = { read: "reads", write: "writes" };

/** requestsOf names a class's requests: "reads", "writes", or `"exports" requests`. */
export function requestsOf(operation: string): string {
  return (
    (Object.hasOwn(PLURAL, operation) ? PLURAL[operation] : undefined) ?? `"${operation}" requests`
  );
}

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
 * describeDuration says how long a stretch of time (ms) lasted, roughly: "a few seconds", "5 min",
 * "2 h", "3 days" (whole units, rounded down).
 */
export function describeDuration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "a few seconds";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/** VerdictRange is the range a report covers, in ms: its start and its end (the present). */
export interface VerdictRange {
  fromMs: number;
  toMs: number;
}

/**
 * judgedOver says what a report judged a limit on: "over the last 24 h", or since it was added
 * within the range ("since it was added 2 h ago"), to the range's end; until it stopped being
 * tried when that was earlier ("from when it was added 20 min ago until 5 min ago"); and how long
 * in all when it was tried in stretches ("in the 40 min it applied of the last 24 h").
 */
function judgedOver(
  report: Partial<Pick<DryRunLimitReport, "sinceMs" | "tried">>,
  words: string,
  range: VerdictRange | undefined,
): string {
  const since = report.sinceMs ?? null;
  if (range === undefined) return `over ${words}`;
  const added = since === null ? null : `since it was added ${describeAgo(since, range.toMs)}`;
  const whole = added ?? `over ${words}`;
  const tried = report.tried;
  if (tried === undefined || tried.length === 0) return whole;
  const [first] = tried;
  const last = tried.at(-1) ?? first;
  if (tried.length === 1 && first && first.fromMs <= (since ?? range.fromMs)) {
    if (first.toMs >= range.toMs) return whole;
    const until = `until ${describeAgo(first.toMs, range.toMs)}`;
    return since === null
      ? `over ${words}, ${until}`
      : `from when it was added ${describeAgo(since, range.toMs)} ${until}`;
  }
  const lasted = tried.reduce((sum, i) => sum + i.toMs - i.fromMs, 0);
  const ongoing = last && last.toMs >= range.toMs ? "it has applied" : "it applied";
  return `in the ${describeDuration(lasted)} ${ongoing} ${added ?? `of ${words}`}`;
}

/**
 * dryRunVerdict says what a dry-run limit would have done over the range in words: "This limit
 * would have refused 3.2% of reads, 41 customers, over the last 24 h" (with the refusals
 * counted), or that there was no traffic to judge it on. A limit is judged only where it was
 * tried (see `judgedOver`): since it was added within the range ("…, since it was added 2 h ago
 * (…)"), until it stopped being tried, `range` (its end being the present) saying how long ago.
 */
export function dryRunVerdict(
  report: Pick<
    DryRunLimitReport,
    "operation" | "refused" | "decisions" | "share" | "customers" | "state"
  > &
    Partial<Pick<DryRunLimitReport, "sinceMs" | "tried">>,
  words = "the last 24 h",
  range?: VerdictRange,
): string {
  const ops = requestsOf(report.operation);
  const subject =
    report.state === "dry-run" ? "This limit would have refused" : "It would have refused";
  const over = judgedOver(report, words, range);
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
  const op = classTitle(report.operation);
  const source = withSource ? (report.source === "override" ? " (override)" : " (plan)") : "";
  return `${op}: ${describeLimit(report)}${source}`;
}

/**
 * DRY_RUN_STATES word what a tried limit is now, for its badge: still tried, enforced, replaced
 * for the customer by an override (its plan's limit), expired with its override, or removed.
 */
export const DRY_RUN_STATES: Readonly<Record<DryRunState, string>> = {
  "dry-run": "dry run",
  enforced: "enforced",
  replaced: "replaced by an override",
  expired: "expired with the override",
  removed: "removed",
};
