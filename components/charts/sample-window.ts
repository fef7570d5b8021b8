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
 * appendSample returns `samples` with `sample` appended and the oldest dropped, so that no sample
 * is more than `maxAgeMs` older than the newest and there are at most `maxLength` of them: a
 * bounded ring that React can hold as state (the input is never modified). A sample not newer
 * than the last one (a repeated poll, a response that arrived late) is ignored and the same
 * array is returned.
 */
export function appendSample<T extends TimedSample>(
  samples: readonly T[],
  sample: T,
  bounds: SampleWindowBounds,
): readonly T[] {
  const last = samples.at(-1);
  if (last !== undefined && sample.t <= last.t) return samples;
  const oldest = sample.t - bounds.maxAgeMs;
  let start = 0;
  while (start < samples.length && (samples[start] as T).t < oldest) start++;
  const kept = samples.length - start + 1;
  if (kept > bounds.maxLength) start += kept - bounds.maxLength;
  const next = samples.slice(start);
  next.push(sample);
  return next;
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
