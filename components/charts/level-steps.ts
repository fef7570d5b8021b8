import { levelAfter, limit as limitOf, nextTokenInMs } from "@/lib/limiter";
import type { LimitShape } from "@/lib/vocabulary";

/** LevelPoint is a bucket's remaining tokens from `t` (ms) until the next point. */
export interface LevelPoint {
  t: number;
  remaining: number;
}

/** LevelSampleLike is a bucket seen at `t`: its tokens and how long until it is full. */
export interface LevelSampleLike {
  t: number;
  remaining: number;
  fullInMs: number;
}

/**
 * levelSteps draws a bucket's level as steps (each point holds until the next) from its samples
 * (oldest first) up to `untilMs`: after each sample, the tokens it gains as time passes, placed
 * by the limiter's arithmetic (`levelAfter`, `nextTokenInMs`) until the next sample shows what
 * was taken meanwhile. Refills closer than `minStepMs` apart are drawn every `minStepMs` (the
 * level there exact), so a fast bucket costs no more points than the chart has pixels.
 */
export function levelSteps(
  limit: LimitShape,
  samples: readonly LevelSampleLike[],
  untilMs: number,
  minStepMs: number,
): LevelPoint[] {
  if (samples.length === 0) return [];
  const shape = limitOf(limit.count, limit.periodMs);
  const step = Math.max(1, minStepMs);
  const points: LevelPoint[] = [];
  samples.forEach((sample, i) => {
    const end = (samples[i + 1] as LevelSampleLike | undefined)?.t ?? untilMs;
    points.push({ t: sample.t, remaining: sample.remaining });
    let elapsed = 0;
    let fullInMs = sample.fullInMs;
    while (fullInMs > 0) {
      elapsed += Math.max(nextTokenInMs(shape, fullInMs), step);
      if (sample.t + elapsed >= end) break;
      const level = levelAfter(shape, sample.fullInMs, elapsed);
      points.push({ t: sample.t + elapsed, remaining: level.remaining });
      fullInMs = level.fullInMs;
    }
  });
  const last = samples.at(-1) as LevelSampleLike;
  if (untilMs > last.t) {
    points.push({
      t: untilMs,
      remaining: levelAfter(shape, last.fullInMs, untilMs - last.t).remaining,
    });
  }
  return points;
}

/** lowestOf is the lowest level of `points` over [fromMs, toMs] and when it began, or null. */
export function lowestOf(
  points: readonly LevelPoint[],
  fromMs: number,
  toMs: number,
): LevelPoint | null {
  let lowest: LevelPoint | null = null;
  points.forEach((point, i) => {
    const next = points[i + 1];
    if (point.t > toMs || (next !== undefined && next.t <= fromMs)) return;
    if (lowest === null || point.remaining < lowest.remaining) {
      lowest = { t: Math.max(point.t, fromMs), remaining: point.remaining };
    }
  });
  return lowest;
}

/**
 * undrawnMs is how much of the window [fromMs, toMs] (ms) lies before the first of `points`:
 * the part a chart of them leaves blank at its left, 0 when they are drawn from its start and
 * the whole window when there are none.
 */
export function undrawnMs(points: readonly LevelPoint[], fromMs: number, toMs: number): number {
  const first = points[0];
  const span = Math.max(0, toMs - fromMs);
  return first === undefined ? span : Math.min(span, Math.max(0, first.t - fromMs));
}
