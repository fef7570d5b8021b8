import type { Runtime } from "@/lib/runtime";
import type { UsageReport } from "@/lib/schemas/usage-answer.schema";
import { DAY_MS } from "@/lib/usage/time";
import { usageReport } from "@/lib/usage/usage-report";
import type { Operation, UsageGranularity } from "@/lib/vocabulary";

/** report reads a runtime's rollups over [fromMs, toMs) as the usage API does. */
export function report(
  runtime: Runtime,
  fromMs: number,
  toMs: number,
  granularity: UsageGranularity = "hour",
  filter: { customerId?: number; planId?: number; operation?: Operation } = {},
): UsageReport {
  const minutesFromMs = runtime.clock.now() - runtime.usageSettings.minuteRetentionDays * DAY_MS;
  return usageReport(runtime.db, { fromMs, toMs, granularity, ...filter }, minutesFromMs);
}

/** totalsOf returns a report's overall counters, without the per-operation split. */
export function totalsOf(r: UsageReport) {
  const { byOperation: _, ...totals } = r.totals;
  return totals;
}
