/** TimedSample is anything measured at a time `t` (ms). */
export interface TimedSample {
  t: number;
}

/** SampleWindowBounds bound a window of samples: by age (ms behind the newest) and by length. */
export interface SampleWindowBounds {
  maxAgeMs: number;
  maxLength: number;
}

/**
 * appendSample returns `samples` with `sample` appended and the oldest dropped, so that they
 * cover the last `maxAgeMs` behind the newest and no more, with at most `maxLength` of them: a
 * bounded ring that React can hold as state (the input is never modified). The last sample at or
 * before the window's start stays, since it says where a line drawn from that start begins. A
 * sample not newer than the last one (a repeated poll, a response that arrived late) is ignored
 * and the same array is returned.
 */
export function appendSample<T extends TimedSample>(
  samples: readonly T[],
  sample: T,
  bounds: SampleWindowBounds,
): readonly T[] {
  const last = samples.at(-1);
  if (last !== undefined && sample.t <= last.t) return samples;
  const oldest = sample.t - bounds.maxAgeMs;
  // Regression: the replayed sample at the window's start was dropped by the first peek after
  // it, and the inspector's charts were blank before a bucket's first recent decision.
  let start = 0;
  while (start < samples.length && nextAt(samples, start, sample) <= oldest) start++;
  const kept = samples.length - start + 1;
  if (kept > bounds.maxLength) start += kept - bounds.maxLength;
  const next = samples.slice(start);
  next.push(sample);
  return next;
}

/** nextAt is the time of the sample after `samples[i]`, `appended` being the one after the last. */
function nextAt<T extends TimedSample>(samples: readonly T[], i: number, appended: T): number {
  return (samples[i + 1] ?? appended).t;
}

/** samplesSince returns the samples at or after `fromMs`, oldest first. */
export function samplesSince<T extends TimedSample>(samples: readonly T[], fromMs: number): T[] {
  let i = 0;
  while (i < samples.length && (samples[i] as T).t < fromMs) i++;
  return samples.slice(i);
}

/**
 * samplesFrom returns the samples from the last one at or before `fromMs` on, oldest first: what
 * a chart starting at `fromMs` needs to know where its line stands at its left edge.
 */
export function samplesFrom<T extends TimedSample>(samples: readonly T[], fromMs: number): T[] {
  let i = 0;
  while (i + 1 < samples.length && (samples[i + 1] as T).t <= fromMs) i++;
  return samples.slice(i);
}
