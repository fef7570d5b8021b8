// When things held: a plan's limits, a customer's plan, an override change at audited moments
// (a plan edit, a promotion, an override saved or cleared, a move to another plan), and an
// override lapses at its expiry. A timeline is such a history; intervals are the parts of time a
// dry-run report judges a limit on, and nothing else.

/** Interval is the time [fromMs, toMs), in ms since the epoch; empty when toMs <= fromMs. */
export interface Interval {
  fromMs: number;
  toMs: number;
}

/**
 * Timeline is how one thing (a plan's limits, a customer's plan, a customer's override for one
 * operation) went: `initial` before the first change (null: there was none), then each change's
 * state from its time `at` (ms) on, oldest first. A change at `at` holds from `at` itself.
 */
export interface Timeline<S> {
  initial: S | null;
  changes: readonly { at: number; state: S | null }[];
}

/** stateAt is a timeline's state at `ms`: the latest change at or before it, else the initial. */
export function stateAt<S>(timeline: Timeline<S>, ms: number): S | null {
  let state = timeline.initial;
  for (const change of timeline.changes) {
    if (change.at > ms) break;
    state = change.state;
  }
  return state;
}

/** changeTimes lists the times (ms) a timeline changes at, oldest first. */
export function changeTimes<S>(timeline: Timeline<S>): number[] {
  return timeline.changes.map((c) => c.at);
}

/** union merges intervals that overlap or touch, in time order; empty ones are dropped. */
export function union(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.toMs > i.fromMs).sort((a, b) => a.fromMs - b.fromMs);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.fromMs <= last.toMs) last.toMs = Math.max(last.toMs, i.toMs);
    else out.push({ ...i });
  }
  return out;
}

/** clip returns the parts of `intervals` within `bounds`, in time order and merged. */
export function clip(intervals: readonly Interval[], bounds: Interval): Interval[] {
  return union(
    intervals.map((i) => ({
      fromMs: Math.max(i.fromMs, bounds.fromMs),
      toMs: Math.min(i.toMs, bounds.toMs),
    })),
  );
}

/**
 * Segment is a stretch of time over which a classification does not change: [fromMs, toMs)
 * and the value it has there.
 */
export interface Segment<V> extends Interval {
  value: V;
}

/**
 * segmentsOf cuts [fromMs, toMs) at every time of `cuts` inside it and classifies each piece by
 * `classify` at its start (the cuts must be every time the classification can change at), then
 * merges neighbours of the same value. In time order; empty for an empty span.
 */
export function segmentsOf<V>(
  span: Interval,
  cuts: readonly number[],
  classify: (ms: number) => V,
): Segment<V>[] {
  if (span.toMs <= span.fromMs) return [];
  const starts = [
    span.fromMs,
    ...[...new Set(cuts)].filter((t) => t > span.fromMs && t < span.toMs).sort((a, b) => a - b),
  ];
  const out: Segment<V>[] = [];
  starts.forEach((fromMs, i) => {
    const toMs = starts[i + 1] ?? span.toMs;
    const value = classify(fromMs);
    const last = out.at(-1);
    if (last && last.value === value) last.toMs = toMs;
    else out.push({ fromMs, toMs, value });
  });
  return out;
}
