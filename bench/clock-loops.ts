import type { SyncLoop } from "./harness";

const perf = globalThis.performance;

/**
 * clockLoops are context rows, keyed by case id: the bare clock reads, through the global
 * `performance`, through a captured `performance`, and `Date.now()`. They return how many reads
 * were positive (all of them).
 */
export const clockLoops: Record<
  "clock/performance.now" | "clock/perf.now" | "clock/Date.now",
  SyncLoop
> = {
  "clock/performance.now": (n) => {
    let positive = 0;
    for (let i = 0; i < n; i++) if (performance.now() > 0) positive++;
    return positive;
  },
  "clock/perf.now": (n) => {
    let positive = 0;
    for (let i = 0; i < n; i++) if (perf.now() > 0) positive++;
    return positive;
  },
  "clock/Date.now": (n) => {
    let positive = 0;
    for (let i = 0; i < n; i++) if (Date.now() > 0) positive++;
    return positive;
  },
};
