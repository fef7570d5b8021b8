/**
 * Clock is the limiter's only source of time: `now()` returns milliseconds on any fixed origin.
 * Decisions read it once each. `sleep`, when present, is how `wait` lets time pass, so a fake
 * clock can drive `wait` in tests without touching the wall clock.
 */
export interface Clock {
  now(): number;
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * sleepWithTimer resolves after `ms` milliseconds of real time, or rejects with the signal's
 * reason when the signal aborts first.
 */
export function sleepWithTimer(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * perf is `performance`, looked up once: in Node `globalThis.performance` is an accessor whose
 * getter runs on every lookup, a measurable part of a hot-key decision.
 */
const perf = globalThis.performance;

/**
 * systemClock is the default clock: monotonic milliseconds from `performance.now()`, so a wall
 * clock stepped by NTP never refunds or steals tokens. It is the only place that reads time.
 */
export const systemClock: Clock = {
  now: () => perf.now(),
  sleep: sleepWithTimer,
};
