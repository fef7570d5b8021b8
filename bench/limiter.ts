/**
 * The limiter core's benchmark: Ratekeeper's Limiter against a plain Map floor and two popular
 * Node limiters, in one process, one run. `npm run bench` (node --expose-gc --import tsx).
 *
 * Every (implementation, workload) pair has its own loop function (`*-loops.ts`), so each call
 * site stays monomorphic and the limiter's method can be inlined into its loop, as in real code.
 * Rounds interleave the implementations (`hot-run.ts`, `heap-per-bucket.ts`); the tables report
 * the median round, timed with process.hrtime.bigint(). On Linux each round also records the main
 * thread's on-CPU time; when other processes held the CPU for more than 5% of the timed wall
 * time, the on-CPU figures and verdicts are printed as well, since wall time is then inflated
 * unevenly.
 */
import { printAllocations, probeAllocations } from "./allocation-probe";
import { printDecide, probeUsageCounter, runDecide } from "./decide-cases";
import { checkDeniedThrowsNothing, printDeniedCheck } from "./denied-contract";
import { runManyKeys } from "./heap-per-bucket";
import { runHot } from "./hot-run";
import { machineAtStart, printHeader, printInterference } from "./machine-info";
import { printHeapPerBucket, printSpeedups, printTimes } from "./report-tables";
import { interference, printFailures } from "./results";
import { printTargets } from "./targets";

async function main(): Promise<void> {
  const machine = machineAtStart();
  printHeader(machine);

  await runHot();
  const deniedCheck = checkDeniedThrowsNothing();
  const allocations = await probeAllocations();
  await runDecide();
  const counterAllocation = await probeUsageCounter();
  await runManyKeys();

  const waited = interference.waitingNs / interference.wallNs;
  const disturbed = !(waited < 0.05); // NaN (no scheduler stats) counts as unknown: show both
  console.log("Wall time per call (median), and ratio to the Map floor in the same run:");
  printTimes("wall");
  console.log("");
  if (disturbed) {
    console.log("On-CPU time per call (median; leaves out the time other processes held the CPU):");
    printTimes("cpu");
    console.log("");
  }
  printHeapPerBucket();
  console.log("");
  console.log(
    "Speed-up over RateLimiterMemory (its time / ours), wall time; the floor's is the ceiling:",
  );
  printSpeedups("wall");
  if (disturbed) {
    console.log("The same, on-CPU time:");
    printSpeedups("cpu");
  }
  console.log("");
  printDeniedCheck(deniedCheck);
  printAllocations(allocations);
  console.log("");

  console.log(
    'Targets (the benchmark issue), wall time; RateLimiterMemory in its fastest setup (keyPrefix ""):',
  );
  printTargets("wall", deniedCheck);
  if (disturbed) {
    console.log("The same, on-CPU time:");
    printTargets("cpu", deniedCheck);
  }

  console.log("");
  printDecide(counterAllocation);

  printFailures();
  printInterference(machine, waited, disturbed);
}

await main();
