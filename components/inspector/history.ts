import { appendSample, type SampleWindowBounds } from "@/components/charts/sample-window";
import type { InspectResponse } from "@/lib/client/types";
import type { LimitShape, Operation } from "@/lib/vocabulary";

/**
 * RemainingSample is a bucket at server time `t` (ms): `remaining` tokens, and `fullInMs` until it
 * is full if nothing is taken, from which its refills until the next sample are drawn.
 */
export interface RemainingSample {
  t: number;
  remaining: number;
  fullInMs: number;
}

/**
 * InspectorHistory holds the samples the inspector has seen, by series key, plus the latest
 * server time. Only the buckets of the latest inspection have a series.
 */
export interface InspectorHistory {
  now: number;
  series: Readonly<Record<string, readonly RemainingSample[]>>;
}

/**
 * HISTORY_BOUNDS keep five minutes of samples per bucket: one a second from the peeks, and those
 * of the replayed history before them (up to ten a second where decisions were made).
 */
export const HISTORY_BOUNDS: SampleWindowBounds = { maxAgeMs: 5 * 60_000, maxLength: 4_000 };

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
 * recordInspection adds one inspection's buckets to the history, one sample per bucket, and
 * drops the series of buckets the inspection no longer has. The history given is not modified;
 * an inspection older than the history's latest is ignored.
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
        { t: inspection.now, remaining: bucket.remaining, fullInMs: bucket.fullInMs },
        bounds,
      );
    });
  }
  return { now: inspection.now, series };
}

/**
 * recordReplay puts an inspection's replayed history (see the inspect route's `history`) before
 * the samples of each of its buckets that the history holds: the samples the peeks have
 * already given are kept, and the replay fills only the time before the first of them. Buckets
 * the history no longer has are left alone.
 */
export function recordReplay(
  history: InspectorHistory,
  inspection: Pick<InspectResponse, "operations" | "history">,
  bounds: SampleWindowBounds = HISTORY_BOUNDS,
): InspectorHistory {
  const replay = inspection.history;
  if (!replay) return history;
  const series: Record<string, readonly RemainingSample[]> = { ...history.series };
  for (const [operation, decision] of Object.entries(inspection.operations)) {
    decision.buckets.forEach((bucket, index) => {
      const key = seriesKey(operation as Operation, index, bucket.limit);
      const replayed = replay.operations[operation as Operation]?.[index];
      if (!replayed) return;
      const seen = history.series[key] ?? [];
      const before = seen.length > 0 ? (seen[0] as RemainingSample).t : Number.POSITIVE_INFINITY;
      let merged: readonly RemainingSample[] = [];
      for (const sample of replayed) {
        if (sample.t < before) merged = appendSample(merged, sample, bounds);
      }
      for (const sample of seen) merged = appendSample(merged, sample, bounds);
      series[key] = merged;
    });
  }
  return { now: Math.max(history.now, replay.toMs), series };
}
