import { clockLoops } from "./clock-loops";
import { type AllocationProbe, fmtInt, probeAllocation, type SyncLoop } from "./harness";
import { PROBE_OPS, WORKLOAD_NAMES } from "./parameters";
import { ratekeeperLoops } from "./ratekeeper-loops";

/**
 * probeAllocations checks the contract: `allow` allocates nothing per call. The default clock's
 * `performance.now()` is measured alone too (first): on Node it returns a freshly boxed number,
 * which is the clock's allocation, not the limiter's. Ratekeeper's own share is the difference.
 */
export async function probeAllocations(): Promise<[string, AllocationProbe][]> {
  const probes: [string, SyncLoop][] = [
    ["performance.now() alone", clockLoops["clock/performance.now"]],
    [WORKLOAD_NAMES.hot1, ratekeeperLoops.hot1],
    [WORKLOAD_NAMES.hot2, ratekeeperLoops.hot2],
    [WORKLOAD_NAMES.denied, ratekeeperLoops.denied],
  ];
  const probed: [string, AllocationProbe][] = [];
  for (const [name, loop] of probes) probed.push([name, await probeAllocation(loop, PROBE_OPS)]);
  return probed;
}

/**
 * printAllocations prints the bytes allocated per call by each probe, and for the limiter's probes
 * the bytes beyond the clock's (the first probe); a probe that saw a GC is reported unmeasured.
 */
export function printAllocations(allocations: readonly [string, AllocationProbe][]): void {
  console.log(`Heap allocated per call (${fmtInt(PROBE_OPS)} warmed calls, no GC in between):`);
  const clockBytes = allocations[0]?.[1].bytesPerCall ?? Number.NaN;
  for (const [i, [name, probe]] of allocations.entries()) {
    let text = `${probe.bytesPerCall.toFixed(2)} bytes/call`;
    if (i > 0) text += ` (${(probe.bytesPerCall - clockBytes).toFixed(2)} beyond the clock's)`;
    if (probe.gcs !== 0) text = `unmeasured (${probe.gcs} GCs ran mid-loop)`;
    console.log(`  ${name.padEnd(27)} ${text}`);
  }
}
