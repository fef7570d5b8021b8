import { appendSample, type SampleWindowBounds } from "@/components/charts/sample-window";
import type { InspectResponse } from "@/lib/client/types";
import type { LimitShape, Operation } from "@/lib/vocabulary";

/** RemainingSample is one peek at a bucket: `remaining` tokens at server time `t` (ms). */
export interface RemainingSample {
  t: number;
  remaining: number;
}

/**
 * InspectorHistory holds the samples the inspector has seen, by series key, plus the latest
 * server time. Only the buckets of the latest inspection have a series.
 */
export interface InspectorHistory {
  now: number;
  series: Readonly<Record<string, readonly RemainingSample[]>>;
}

/** HISTORY_BOUNDS keep five minutes of one-second samples per bucket (and a little slack). */
export const HISTORY_BOUNDS: SampleWindowBounds = { maxAgeMs: 5 * 60_000, maxLength: 400 };

/** emptyHistory is the history before the first inspection. */
export const emptyHistory: InspectorHistory = { now: 0, series: {} };

/**
 * seriesKey names the series of one bucket: its operation, position and limit. A changed limit
 * (a plan edit, an override set or lapsed) is a different key, so its samples start afresh.
 */
export function seriesKey(operation: Operation, index: number, limit: LimitShape): string {
  return `${operation}:${index}:${limit.count}/${limit.periodMs}`;
}

/**
 * recordInspection adds one inspection's remaining tokens to the history, one sample per
 * bucket, and drops the series of buckets the inspection no longer has. The history given is
 * not modified; an inspection older than the history's latest is ignored.
 */
export function recordInspection(
  history: InspectorHistory,
  inspection: Pick<InspectResponse, "now" | "operations">,
  bounds: SampleWindowBounds = HISTORY_BOUNDS,
): InspectorHistory {
  if (inspection.now < history.now) return history;
  const series: Record<string, readonly RemainingSample[]> = {};
  for (const [operation, decision] of Object.entries(inspection.operations)) {
    decision.buckets.forEach((bucket, index) => {
      const key = seriesKey(operation as Operation, index, bucket.limit);
      series[key] = appendSample(
        history.series[key] ?? [],
        { t: inspection.now, remaining: bucket.remaining },
        bounds,
      );
    });
  }
  return { now: inspection.now, series };
}
