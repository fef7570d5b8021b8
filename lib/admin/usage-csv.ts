import { listPlans } from "@/db/queries/plans";
import type { UsageFiltersInput } from "@/lib/schemas/usage.schema";
import { csvLine } from "@/lib/usage/csv";
import { DAY_MS, floorTo } from "@/lib/usage/time";
import { readUsage } from "@/lib/usage/usage-read";
import { snakeCounterName, USAGE_COUNTERS } from "@/lib/vocabulary";
import type { Outcome } from "./plans";
import { customerName, MAX_DETAIL_SPAN_MS, minutesFrom, namesOf, type UsageContext } from "./usage";
import { resolveRange } from "./usage-range";

/**
 * CSV_COLUMNS are the export's header: one row per UTC day, customer, plan and operation. `denied`
 * counts refusals by the limits (429); `too_large` those refused for their cost (413: more tokens
 * than a limit holds), whose cost `tokens_requested` leaves out.
 */
export const CSV_COLUMNS = [
  "date",
  "customer_id",
  "customer",
  "plan",
  "operation",
  ...USAGE_COUNTERS.map(snakeCounterName),
];

/** DEFAULT_CSV_SPAN_MS: an export without `from` covers the last 30 days. */
const DEFAULT_CSV_SPAN_MS = 30 * DAY_MS;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * usageCsv exports the rollups over the range (default the last 30 days, widened to whole UTC
 * days, 93 at most) as CSV: one row per day, customer, plan and operation with traffic, by day,
 * then customer name. The plan is the slug of the plan the traffic was made on.
 */
export function usageCsv(
  ctx: UsageContext,
  input: UsageFiltersInput,
): Outcome<{ filename: string; body: string }> {
  const range = resolveRange(input, ctx.clock.now(), DEFAULT_CSV_SPAN_MS, MAX_DETAIL_SPAN_MS);
  if (!range.ok) return range;
  const fromMs = floorTo(range.value.fromMs, DAY_MS);
  const toMs = Math.ceil(range.value.toMs / DAY_MS) * DAY_MS;
  const rows = readUsage(
    ctx.db,
    { ...input, fromMs, toMs },
    ["bucket", "customer", "plan", "operation"],
    { bucketMs: DAY_MS, minutesFromMs: minutesFrom(ctx) },
  );
  const names = namesOf(ctx.db);
  const plans = new Map(listPlans(ctx.db).map((p) => [p.id, p.slug]));
  const nameOf = (id: number) => customerName(names, id);
  rows.sort(
    (a, b) =>
      a.bucket - b.bucket ||
      nameOf(a.customerId).localeCompare(nameOf(b.customerId)) ||
      a.customerId - b.customerId ||
      a.planId - b.planId ||
      a.operation.localeCompare(b.operation),
  );
  let body = csvLine(CSV_COLUMNS);
  for (const r of rows) {
    body += csvLine([
      isoDay(r.bucket),
      r.customerId,
      nameOf(r.customerId),
      plans.get(r.planId) ?? `#${r.planId}`,
      r.operation,
      ...USAGE_COUNTERS.map((counter) => r[counter]),
    ]);
  }
  const filename = `ratekeeper-usage-${isoDay(fromMs)}-to-${isoDay(toMs - DAY_MS)}.csv`;
  return { ok: true, value: { filename, body } };
}
