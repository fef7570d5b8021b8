import { existsSync, readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";

/** A loop under test: performs `n` operations and returns a count the caller checks. */
export type SyncLoop = (n: number) => number;
/** An async loop under test: performs `n` operations and resolves to a count the caller checks. */
export type AsyncLoop = (n: number) => Promise<number>;

/** fullGc runs the global `gc()` (from --expose-gc) several times so the heap settles. */
export function fullGc(): void {
  const collect = globalThis.gc;
  if (collect === undefined) {
    throw new Error("run with --expose-gc (npm run bench does)");
  }
  for (let i = 0; i < 4; i++) collect();
}

/** heapUsed is the V8 heap in use, in bytes. */
export function heapUsed(): number {
  return process.memoryUsage().heapUsed;
}

/** median is the middle value of `values` (the mean of the middle two if even); NaN if empty. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const SCHEDSTAT = "/proc/thread-self/schedstat";
const hasSchedstat = existsSync(SCHEDSTAT);

/**
 * threadTimes reads this thread's scheduler accounting (Linux): nanoseconds on a CPU and
 * nanoseconds runnable but waiting for one (another process held it). NaN elsewhere.
 */
export function threadTimes(): { onCpu: number; waiting: number } {
  if (!hasSchedstat) return { onCpu: Number.NaN, waiting: Number.NaN };
  const [onCpu, waiting] = readFileSync(SCHEDSTAT, "utf8").split(" ").map(Number);
  return { onCpu: onCpu ?? Number.NaN, waiting: waiting ?? Number.NaN };
}

/**
 * A timing: wall-clock nanoseconds per operation, the main thread's on-CPU nanoseconds per
 * operation (which leave out the time other processes held the CPU), the wall time spent
 * waiting for a CPU, and the loop's own result.
 */
export interface Timing {
  nsPerOp: number;
  cpuNsPerOp: number;
  wallNs: number;
  waitingNs: number;
  result: number;
}

function timing(
  start: bigint,
  end: bigint,
  before: { onCpu: number; waiting: number },
  n: number,
  result: number,
): Timing {
  const after = threadTimes();
  const wallNs = Number(end - start);
  return {
    nsPerOp: wallNs / n,
    cpuNsPerOp: (after.onCpu - before.onCpu) / n,
    wallNs,
    waitingNs: after.waiting - before.waiting,
    result,
  };
}

/** timeSync times one run of `loop` over `n` operations. */
export function timeSync(loop: SyncLoop, n: number): Timing {
  const before = threadTimes();
  const start = process.hrtime.bigint();
  const result = loop(n);
  const end = process.hrtime.bigint();
  return timing(start, end, before, n, result);
}

/** timeAsync times one run of `loop` over `n` operations, awaiting it. */
export async function timeAsync(loop: AsyncLoop, n: number): Promise<Timing> {
  const before = threadTimes();
  const start = process.hrtime.bigint();
  const result = await loop(n);
  const end = process.hrtime.bigint();
  return timing(start, end, before, n, result);
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An allocation probe: heap growth per call, and the GCs that ran (none, if it is valid). */
export interface AllocationProbe {
  bytesPerCall: number;
  gcs: number;
}

/**
 * probeAllocation warms `loop`, then measures the heap growth over `n` calls with no GC in
 * between: with no GC, the growth is the allocation. It keeps the least of three clean attempts
 * (anything else allocating meanwhile, such as the runtime's own housekeeping, only adds).
 */
export async function probeAllocation(loop: SyncLoop, n: number): Promise<AllocationProbe> {
  for (let i = 0; i < 3; i++) loop(n * 10);
  // GC entries arrive late and include the forced ones: count those that started mid-loop.
  const gcStarts: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcStarts.push(entry.startTime);
  });
  observer.observe({ entryTypes: ["gc"] });
  let best: AllocationProbe = { bytesPerCall: Number.NaN, gcs: -1 };
  let clean = 0;
  try {
    for (let attempt = 0; attempt < 8 && clean < 3; attempt++) {
      fullGc();
      await tick();
      const start = performance.now();
      const before = heapUsed();
      loop(n);
      const after = heapUsed();
      const end = performance.now();
      await tick();
      await tick();
      const gcs = gcStarts.filter((t) => t >= start && t <= end).length;
      const bytesPerCall = (after - before) / n;
      if (gcs === 0) {
        clean++;
        if (best.gcs !== 0 || bytesPerCall < best.bytesPerCall) best = { bytesPerCall, gcs };
      } else if (best.gcs !== 0) {
        best = { bytesPerCall, gcs };
      }
    }
  } finally {
    observer.disconnect();
  }
  return best;
}

/** table renders rows of cells as an aligned, pipe-separated text table. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join(" | ");
  const rule = widths.map((w) => "-".repeat(w)).join("-|-");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** fmtNs formats a duration in ns: "12.3 ns" below a microsecond, "1.23 µs" from one up. */
export function fmtNs(ns: number): string {
  return ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(1)} ns`;
}

/** fmtRatio formats a ratio with two decimals and an "x": "1.05x". */
export function fmtRatio(ratio: number): string {
  return `${ratio.toFixed(2)}x`;
}

/** fmtInt formats an integer with thousands separators: "1,000,000". */
export function fmtInt(value: number): string {
  return value.toLocaleString("en-US");
}
