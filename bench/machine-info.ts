import os from "node:os";
import { fmtInt } from "./harness";
import {
  ASYNC_OPS,
  MANY_KEYS,
  MANY_KEYS_ROUNDS,
  SYNC_OPS,
  TIMED_ROUNDS,
  WARMUP_ROUNDS,
} from "./parameters";

/** MachineAtStart is what the run records before it starts: its start time (ns), load and CPUs. */
export interface MachineAtStart {
  started: bigint;
  loadAtStart: number;
  cpus: os.CpuInfo[];
}

/** machineAtStart reads the start time (process.hrtime, ns), the 1-min load average, the CPUs. */
export function machineAtStart(): MachineAtStart {
  const started = process.hrtime.bigint();
  const loadAtStart = os.loadavg()[0] ?? 0;
  const cpus = os.cpus();
  return { started, loadAtStart, cpus };
}

/** printHeader prints the benchmark's title, the machine and the method, then a blank line. */
export function printHeader({ cpus }: MachineAtStart): void {
  console.log("Ratekeeper limiter benchmark");
  console.log(
    `machine: ${os.type()} ${os.release()} ${os.arch()}, ${cpus[0]?.model ?? "unknown CPU"}, ` +
      `${cpus.length} cores, Node ${process.version} (V8 ${process.versions.v8})`,
  );
  console.log(
    `method: ${WARMUP_ROUNDS} warm-up + ${TIMED_ROUNDS} timed rounds, median; ` +
      `${fmtInt(SYNC_OPS)} calls/round (RateLimiterMemory ${fmtInt(ASYNC_OPS)}, awaited); ` +
      `${fmtInt(MANY_KEYS)} keys x ${MANY_KEYS_ROUNDS} rounds for first touch and heap`,
  );
  console.log("");
}

/**
 * printInterference prints, after a blank line, the share of the timed wall time (`waited`, 0 to
 * 1, NaN if unknown) the main thread waited for a CPU, the load averages at the start and now,
 * and the total time since `started`, in seconds.
 */
export function printInterference(
  { started, loadAtStart, cpus }: MachineAtStart,
  waited: number,
  disturbed: boolean,
): void {
  const load = os.loadavg()[0] ?? 0;
  console.log("");
  console.log(
    `interference: the main thread waited for a CPU ${(waited * 100).toFixed(1)}% of the timed ` +
      `wall time; 1-min load average ${loadAtStart.toFixed(2)} at the start, ` +
      `${load.toFixed(2)} at the end, on ${cpus.length} cores` +
      (disturbed ? " (other work was running: trust the on-CPU figures)" : ""),
  );
  console.log(`total time: ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);
}
