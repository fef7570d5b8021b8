import { clockLoops } from "./clock-loops";
import { floorDenied, floorLoops } from "./floor-loops";
import { type AsyncLoop, type SyncLoop, type Timing, timeAsync, timeSync } from "./harness";
import {
  ASYNC_OPS,
  DENIED_COUNT,
  DENIED_KEY,
  type HotWorkload,
  IMPLS,
  type Impl,
  SYNC_OPS,
  TIMED_ROUNDS,
  WARMUP_ROUNDS,
} from "./parameters";
import { ratekeeperLoops, rkDenied } from "./ratekeeper-loops";
import { check, record } from "./results";
import { rlmDenied, rlmLoops, rlmPrefixedDenied, rlmPrefixedLoops } from "./rlm-loops";
import { tbDenied, tokenBucketLoops } from "./token-bucket-loops";

/** drainDeniedKeys empties every implementation's denied-path bucket before timing. */
async function drainDeniedKeys(): Promise<void> {
  for (let i = 0; i < DENIED_COUNT; i++) {
    floorDenied.allow(DENIED_KEY);
    rkDenied.allow(DENIED_KEY);
    tbDenied.tryRemoveTokens(1);
    await rlmDenied.consume(DENIED_KEY);
    await rlmPrefixedDenied.consume(DENIED_KEY);
  }
  if (rkDenied.allow(DENIED_KEY) || floorDenied.allow(DENIED_KEY)) {
    throw new Error("denied-path key did not drain");
  }
}

/** A timed case: one loop; every call must go the expected way (all allowed, or all denied). */
interface HotCase {
  id: string;
  sync?: SyncLoop;
  async?: AsyncLoop;
}

const syncLoops: Record<Exclude<Impl, "rlm">, Record<HotWorkload, SyncLoop>> = {
  floor: floorLoops,
  ratekeeper: ratekeeperLoops,
  tokenBucket: tokenBucketLoops,
};

function hotCases(): HotCase[] {
  const cases: HotCase[] = [];
  for (const workload of ["hot1", "hot2", "denied"] as const) {
    for (const impl of IMPLS) {
      const id = `${impl}/${workload}`;
      cases.push(
        impl === "rlm"
          ? { id, async: rlmLoops[workload] }
          : { id, sync: syncLoops[impl][workload] },
      );
    }
  }
  for (const [id, loop] of Object.entries(rlmPrefixedLoops)) cases.push({ id, async: loop });
  for (const [id, loop] of Object.entries(clockLoops)) cases.push({ id, sync: loop });
  return cases;
}

/**
 * runHot drains the denied keys, then runs WARMUP_ROUNDS + TIMED_ROUNDS rounds that interleave
 * every hot-key case (and the context rows), checks every call went the expected way, and records
 * the median of the timed rounds per case.
 */
export async function runHot(): Promise<void> {
  await drainDeniedKeys();
  const cases = hotCases();
  const samples = new Map<string, Timing[]>();
  for (let round = 0; round < WARMUP_ROUNDS + TIMED_ROUNDS; round++) {
    for (const c of cases) {
      let timing: Timing;
      let ops: number;
      if (c.async !== undefined) {
        ops = ASYNC_OPS;
        timing = await timeAsync(c.async, ops);
      } else if (c.sync !== undefined) {
        ops = SYNC_OPS;
        timing = timeSync(c.sync, ops);
      } else {
        throw new Error(`case ${c.id} has no loop`);
      }
      check(`${c.id}, round ${round}`, timing.result, ops);
      if (round < WARMUP_ROUNDS) continue;
      samples.set(c.id, [...(samples.get(c.id) ?? []), timing]);
    }
  }
  for (const [id, timings] of samples) record(id, timings);
}
