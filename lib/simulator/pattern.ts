/** MAX_SIMULATED_REQUESTS caps one simulation so the browser stays responsive. */
export const MAX_SIMULATED_REQUESTS = 200_000;

/** MAX_SIMULATED_SECONDS caps the span of a generated pattern: one day. */
export const MAX_SIMULATED_SECONDS = 86_400;

/**
 * Pattern is a traffic shape to simulate; all times are offsets in milliseconds from the start.
 *
 * - `steady`: `ratePerSecond` requests a second, evenly spaced, for `seconds` seconds.
 * - `bursts`: `size` requests at the same instant, every `everySeconds`, for `seconds` seconds.
 * - `ramp`: second `k` of `seconds` carries a rate linearly interpolated from `fromPerSecond`
 *   (first second) to `toPerSecond` (last second), rounded to whole requests, evenly spaced.
 * - `timestamps`: the given offsets (ms, whole, not negative), in any order.
 */
export type Pattern =
  | { kind: "steady"; ratePerSecond: number; seconds: number }
  | { kind: "bursts"; size: number; everySeconds: number; seconds: number }
  | { kind: "ramp"; fromPerSecond: number; toPerSecond: number; seconds: number }
  | { kind: "timestamps"; offsetsMs: readonly number[] };

// Counting with a little slack keeps 0.3 req/s over 10 s at 3 requests despite float error.
const EPSILON = 1e-9;

function rampRate(pattern: Extract<Pattern, { kind: "ramp" }>, second: number): number {
  const { fromPerSecond, toPerSecond, seconds } = pattern;
  if (seconds <= 1) return Math.round(fromPerSecond);
  return Math.round(fromPerSecond + ((toPerSecond - fromPerSecond) * second) / (seconds - 1));
}

/** requestCount is the number of requests `timestampsOf(pattern)` yields, computed without building them. */
export function requestCount(pattern: Pattern): number {
  switch (pattern.kind) {
    case "steady":
      return Math.max(0, Math.ceil(pattern.ratePerSecond * pattern.seconds - EPSILON));
    case "bursts":
      return (
        Math.max(0, Math.ceil(pattern.seconds / pattern.everySeconds - EPSILON)) * pattern.size
      );
    case "ramp": {
      let total = 0;
      for (let s = 0; s < pattern.seconds; s++) total += Math.max(0, rampRate(pattern, s));
      return total;
    }
    case "timestamps":
      return pattern.offsetsMs.length;
  }
}

/** spanMsOf is how long a pattern lasts (ms): its seconds, or up to just past its last offset. */
export function spanMsOf(pattern: Pattern): number {
  if (pattern.kind !== "timestamps") return pattern.seconds * 1000;
  return pattern.offsetsMs.length === 0 ? 0 : Math.max(...pattern.offsetsMs) + 1;
}

/** timestampsOf turns a pattern into the sorted offsets (whole ms from the start) of its requests. */
export function timestampsOf(pattern: Pattern): number[] {
  const out: number[] = [];
  switch (pattern.kind) {
    case "steady": {
      const n = requestCount(pattern);
      for (let i = 0; i < n; i++) out.push(Math.floor((i * 1000) / pattern.ratePerSecond));
      break;
    }
    case "bursts": {
      const bursts = Math.max(0, Math.ceil(pattern.seconds / pattern.everySeconds - EPSILON));
      for (let k = 0; k < bursts; k++) {
        const at = Math.round(k * pattern.everySeconds * 1000);
        for (let j = 0; j < pattern.size; j++) out.push(at);
      }
      break;
    }
    case "ramp": {
      for (let s = 0; s < pattern.seconds; s++) {
        const rate = Math.max(0, rampRate(pattern, s));
        for (let j = 0; j < rate; j++) out.push(s * 1000 + Math.floor((j * 1000) / rate));
      }
      break;
    }
    case "timestamps":
      out.push(...pattern.offsetsMs);
      out.sort((a, b) => a - b);
      break;
  }
  return out;
}

/** ParsedTimestamps is pasted offsets read as numbers, or the first thing wrong with them. */
export type ParsedTimestamps = { ok: true; offsetsMs: number[] } | { ok: false; error: string };

/**
 * parseTimestamps reads pasted offsets: whole milliseconds from the start, separated by commas,
 * semicolons, spaces or new lines. Order does not matter.
 */
export function parseTimestamps(text: string): ParsedTimestamps {
  const tokens = text.split(/[\s,;]+/).filter((t) => t.length > 0);
  if (tokens.length === 0) return { ok: false, error: "Paste at least one timestamp" };
  if (tokens.length > MAX_SIMULATED_REQUESTS) {
    return {
      ok: false,
      error: `At most ${MAX_SIMULATED_REQUESTS.toLocaleString("en-US")} timestamps`,
    };
  }
  const offsetsMs: number[] = [];
  for (const token of tokens) {
    if (!/^\d+$/.test(token)) {
      return {
        ok: false,
        error: `“${token.slice(0, 20)}” is not a whole number of milliseconds`,
      };
    }
    const value = Number(token);
    if (value > MAX_SIMULATED_SECONDS * 1000) {
      return { ok: false, error: `${token} is more than a day after the start` };
    }
    offsetsMs.push(value);
  }
  return { ok: true, offsetsMs };
}
