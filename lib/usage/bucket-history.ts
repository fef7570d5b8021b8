import { type BucketLevel, BucketTrace, type Limit } from "@/lib/limiter";
import type { LevelSample } from "@/lib/schemas/inspect-answer.schema";
import type { TakenSecond } from "./traffic-log";

/** MAX_STEPS_PER_SECOND: a second's tokens are replayed in at most this many takes. */
const MAX_STEPS_PER_SECOND = 10;

/** Take is `n` tokens taken at `atMs` (ms since the epoch). */
export interface Take {
  atMs: number;
  n: number;
}

/**
 * takesOf spreads a second's tokens evenly from its first to its last allowed decision, in as
 * many takes as there were decisions (at most MAX_STEPS_PER_SECOND, whole tokens each): a burst
 * stays one moment, a steady stream stays a stream.
 */
export function takesOf(second: TakenSecond): Take[] {
  if (second.taken <= 0) return [];
  const steps = Math.max(1, Math.min(second.allowed, second.taken, MAX_STEPS_PER_SECOND));
  const first = second.t + second.firstMs;
  const span = Math.max(0, second.lastMs - second.firstMs);
  const takes: Take[] = [];
  let given = 0;
  for (let i = 0; i < steps; i++) {
    const upTo = Math.round((second.taken * (i + 1)) / steps);
    const atMs = steps === 1 ? first : first + Math.round((span * i) / (steps - 1));
    const last = takes.at(-1);
    if (last?.atMs === atMs) last.n += upTo - given;
    else if (upTo > given) takes.push({ atMs, n: upTo - given });
    given = upTo;
  }
  return takes;
}

function replay(
  limit: Limit,
  takes: readonly Take[],
  fromMs: number,
  missingUnits: number,
): BucketTrace {
  const trace = new BucketTrace(limit, fromMs, missingUnits);
  for (const take of takes) trace.take(take.atMs, take.n);
  return trace;
}

/**
 * startOf is how far from full the bucket must have been at `fromMs` (in the limit's units) for
 * the takes to leave it as peeked at `toMs` (`end`): the least such start, found by bisection
 * (the end is monotone in the start). With no peek, or when the takes alone reach it, the bucket
 * starts full; when no start reaches it (takes the view did not see), it starts empty.
 */
function startOf(
  limit: Limit,
  takes: readonly Take[],
  fromMs: number,
  toMs: number,
  end: Pick<BucketLevel, "fullInMs"> | undefined,
): number {
  if (!end) return 0;
  const target = Math.round(end.fullInMs * limit.scale);
  const endOf = (start: number) => replay(limit, takes, fromMs, start).missingUnitsAt(toMs);
  if (endOf(0) >= target) return 0;
  let lo = 0;
  let hi = limit.periodUnits;
  if (endOf(hi) < target) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (endOf(mid) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * replayBucket replays one bucket of `limit` over [fromMs, toMs] from the seconds of decisions
 * that took its tokens, through the limiter's own arithmetic (BucketTrace), and returns its level
 * at `fromMs`, right after each take, and at `toMs`. A bucket's state before the seconds held is
 * unknown: the replay starts from the level that makes it end where the bucket was peeked at
 * `toMs` (`end`), or full without a peek. Seconds must be oldest first; those outside the range
 * are ignored.
 */
export function replayBucket(
  limit: Limit,
  seconds: readonly TakenSecond[],
  fromMs: number,
  toMs: number,
  end?: Pick<BucketLevel, "fullInMs">,
): LevelSample[] {
  const takes = seconds
    .filter((s) => s.t >= fromMs && s.t <= toMs)
    .flatMap(takesOf)
    .filter((take) => take.atMs >= fromMs && take.atMs <= toMs);
  const trace = new BucketTrace(limit, fromMs, startOf(limit, takes, fromMs, toMs, end));
  const samples: LevelSample[] = [{ t: fromMs, ...trace.levelAt(fromMs) }];
  for (const take of takes) {
    trace.take(take.atMs, take.n);
    const last = samples.at(-1) as LevelSample;
    const level = { t: take.atMs, ...trace.levelAt(take.atMs) };
    if (last.t === take.atMs) samples[samples.length - 1] = level;
    else samples.push(level);
  }
  if ((samples.at(-1) as LevelSample).t < toMs) samples.push({ t: toMs, ...trace.levelAt(toMs) });
  return samples;
}
