import { fmtInt, median, type Timing } from "./harness";
import type { Impl } from "./parameters";

/**
 * Metric names a figure per call: the median wall-clock ns/op (the headline), or the median
 * on-CPU ns/op of the main thread (the same work without the time other processes held the CPU:
 * the figure to trust on a shared machine).
 */
export type Metric = "wall" | "cpu";

/** results holds the run's figures per metric, by case id ("impl/workload"), in ns per call. */
export const results: Record<Metric, Map<string, number>> = { wall: new Map(), cpu: new Map() };

/** interference sums, over all recorded timings, the wall ns and the ns spent waiting for a CPU. */
export const interference = { wallNs: 0, waitingNs: 0 };

/** failures lists the unexpected decisions seen during the run (the figures are then suspect). */
export const failures: string[] = [];

/** bytesPerBucket holds each implementation's median heap per bucket at MANY_KEYS keys (bytes). */
export const bytesPerBucket = new Map<Impl, number>();

/** record stores the medians of a case's timed rounds and adds them to the interference totals. */
export function record(id: string, timings: readonly Timing[]): void {
  results.wall.set(id, median(timings.map((t) => t.nsPerOp)));
  results.cpu.set(id, median(timings.map((t) => t.cpuNsPerOp)));
  for (const t of timings) {
    interference.wallNs += t.wallNs;
    interference.waitingNs += t.waitingNs;
  }
}

/** check records a failure when a loop's count is not the expected one. */
export function check(what: string, got: number, want: number): void {
  if (got !== want) failures.push(`${what}: expected ${fmtInt(want)}, got ${fmtInt(got)}`);
}

/** printFailures prints the unexpected decisions, if any, after a blank line. */
export function printFailures(): void {
  if (failures.length > 0) {
    console.log("");
    console.log("Unexpected decisions (the figures above are suspect):");
    for (const failure of failures) console.log(`  ${failure}`);
  }
}
