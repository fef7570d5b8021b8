/**
 * The limiter core's benchmark: Ratekeeper's Limiter against a plain Map floor and two popular
 * Node limiters, in one process, one run. `npm run bench` (node --expose-gc --import tsx).
 *
 * Every (implementation, workload) pair has its own loop function, so each call site stays
 * monomorphic and the limiter's method can be inlined into its loop, as in real code. Rounds
 * interleave the implementations; the tables report the median round, timed with
 * process.hrtime.bigint(). On Linux each round also records the main thread's on-CPU time; when
 * other processes held the CPU for more than 5% of the timed wall time, the on-CPU figures and
 * verdicts are printed as well, since wall time is then inflated unevenly.
 */
import os from "node:os";
import { TokenBucket } from "limiter";
import { RateLimiterMemory, RateLimiterUnion } from "rate-limiter-flexible";
import { Limiter, limit } from "../lib/limiter";
import {
  type AllocationProbe,
  type AsyncLoop,
  fmtInt,
  fmtNs,
  fmtRatio,
  fullGc,
  heapUsed,
  median,
  probeAllocation,
  type SyncLoop,
  type Timing,
  table,
  timeAsync,
  timeSync,
} from "./harness";
import { MapFloor, MapFloorPair } from "./map-floor";

// ---------------------------------------------------------------------------------------------
// Parameters: bounded so the whole run stays well under two minutes on a 2-core machine.

const SYNC_OPS = 1_000_000; // calls per timed round, synchronous limiters
const ASYNC_OPS = 100_000; // calls per timed round, RateLimiterMemory (promise per call)
const WARMUP_ROUNDS = 2;
const TIMED_ROUNDS = 7;
const MANY_KEYS = 1_000_000;
const MANY_KEYS_ROUNDS = 3;
const MANY_KEYS_WARMUP = 20_000;
const PROBE_OPS = 20_000; // calls per allocation probe: small enough that no GC runs

const HOT_KEY = "203.0.113.7";
const DENIED_KEY = "198.51.100.23";

// Limits. Hot: 100,000,000 per second never runs dry at a few tens of millions of calls per
// second. Second hot limit: 1,000,000,000 per minute. Denied: 10 per hour, drained first.
// Many keys: 10 per hour per key (long enough that no library expires a key mid-measurement).
const HOT_COUNT = 100_000_000;
const HOT_PERIOD_MS = 1_000;
const HOT2_COUNT = 1_000_000_000;
const HOT2_PERIOD_MS = 60_000;
const DENIED_COUNT = 10;
const DENIED_PERIOD_MS = 3_600_000;
const MANY_COUNT = 10;
const MANY_PERIOD_MS = 3_600_000;

type Impl = "floor" | "ratekeeper" | "tokenBucket" | "rlm";
type Workload = "hot1" | "hot2" | "denied" | "firstTouch";

const IMPLS: readonly Impl[] = ["floor", "ratekeeper", "tokenBucket", "rlm"];
const IMPL_NAMES: Record<Impl, string> = {
  floor: "Map floor",
  ratekeeper: "Ratekeeper",
  tokenBucket: "limiter TokenBucket",
  rlm: "RateLimiterMemory",
};
const WORKLOAD_NAMES: Record<Workload, string> = {
  hot1: "hot key, 1 limit, allowed",
  hot2: "hot key, 2 limits, allowed",
  denied: "hot key, denied",
  firstTouch: "1M distinct keys, first touch",
};

/** rejected tells a RateLimiterMemory denial (a RateLimiterRes) from a real error, as callers do. */
function rejected(reason: unknown): boolean {
  if (reason instanceof Error) throw reason;
  return true;
}

/** fullTokenBucket builds a TokenBucket that starts full, as the package's own RateLimiter does. */
function fullTokenBucket(count: number, periodMs: number, parent?: TokenBucket): TokenBucket {
  const bucket = new TokenBucket({
    bucketSize: count,
    tokensPerInterval: count,
    interval: periodMs,
    parentBucket: parent,
  });
  bucket.content = count;
  return bucket;
}

// ---------------------------------------------------------------------------------------------
// Hot-key workloads.

const identity = (key: string) => key;

const rk1 = new Limiter<string, string>(identity, limit(HOT_COUNT, "1s"));
const rk2 = new Limiter<string, string>(identity, [
  limit(HOT_COUNT, "1s"),
  limit(HOT2_COUNT, "1m"),
]);
const rkDenied = new Limiter<string, string>(identity, limit(DENIED_COUNT, "1h"));

const floor1 = new MapFloor(HOT_COUNT, HOT_PERIOD_MS);
const floor2 = new MapFloorPair(HOT_COUNT, HOT_PERIOD_MS, HOT2_COUNT, HOT2_PERIOD_MS);
const floorDenied = new MapFloor(DENIED_COUNT, DENIED_PERIOD_MS);

const tb1 = fullTokenBucket(HOT_COUNT, HOT_PERIOD_MS);
// Two limits with `limiter`: its documented hierarchy, a child bucket with a parent bucket.
const tb2 = fullTokenBucket(HOT_COUNT, HOT_PERIOD_MS, fullTokenBucket(HOT2_COUNT, HOT2_PERIOD_MS));
const tbDenied = fullTokenBucket(DENIED_COUNT, DENIED_PERIOD_MS);

// keyPrefix "" spares RateLimiterMemory a string concatenation per call (its fastest setup).
const rlm1 = new RateLimiterMemory({
  points: HOT_COUNT,
  duration: HOT_PERIOD_MS / 1000,
  keyPrefix: "",
});
// Two limits with rate-limiter-flexible: its documented composite, RateLimiterUnion (distinct
// prefixes are required: they name the limiters in its result).
const rlm2 = new RateLimiterUnion(
  new RateLimiterMemory({ points: HOT_COUNT, duration: HOT_PERIOD_MS / 1000, keyPrefix: "s" }),
  new RateLimiterMemory({ points: HOT2_COUNT, duration: HOT2_PERIOD_MS / 1000, keyPrefix: "m" }),
);
// The same two with rate-limiter-flexible's default keyPrefix ("rlflx"), as most callers leave it:
// a sensitivity figure, not the headline (which uses its fastest setup above).
const rlmPrefixed1 = new RateLimiterMemory({ points: HOT_COUNT, duration: HOT_PERIOD_MS / 1000 });
const rlmPrefixedDenied = new RateLimiterMemory({
  points: DENIED_COUNT,
  duration: DENIED_PERIOD_MS / 1000,
});
const rlmDenied = new RateLimiterMemory({
  points: DENIED_COUNT,
  duration: DENIED_PERIOD_MS / 1000,
  keyPrefix: "",
});

// One literal per (implementation, workload): the loops return how many calls were allowed
// (hot) or denied (denied), and the runner checks that every call went the expected way.
const syncLoops: Record<Exclude<Impl, "rlm">, Record<Exclude<Workload, "firstTouch">, SyncLoop>> = {
  floor: {
    hot1: (n) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if (floor1.allow(HOT_KEY)) allowed++;
      return allowed;
    },
    hot2: (n) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if (floor2.allow(HOT_KEY)) allowed++;
      return allowed;
    },
    denied: (n) => {
      let denied = 0;
      for (let i = 0; i < n; i++) if (!floorDenied.allow(DENIED_KEY)) denied++;
      return denied;
    },
  },
  ratekeeper: {
    hot1: (n) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if (rk1.allow(HOT_KEY)) allowed++;
      return allowed;
    },
    hot2: (n) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if (rk2.allow(HOT_KEY)) allowed++;
      return allowed;
    },
    denied: (n) => {
      let denied = 0;
      for (let i = 0; i < n; i++) if (!rkDenied.allow(DENIED_KEY)) denied++;
      return denied;
    },
  },
  tokenBucket: {
    hot1: (n) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if (tb1.tryRemoveTokens(1)) allowed++;
      return allowed;
    },
    hot2: (n) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if (tb2.tryRemoveTokens(1)) allowed++;
      return allowed;
    },
    denied: (n) => {
      let denied = 0;
      for (let i = 0; i < n; i++) if (!tbDenied.tryRemoveTokens(1)) denied++;
      return denied;
    },
  },
};

const rlmLoops: Record<Exclude<Workload, "firstTouch">, AsyncLoop> = {
  hot1: async (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlm1.consume(HOT_KEY);
        allowed++;
      } catch (reason) {
        rejected(reason);
      }
    }
    return allowed;
  },
  hot2: async (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlm2.consume(HOT_KEY);
        allowed++;
      } catch (reason) {
        rejected(reason);
      }
    }
    return allowed;
  },
  denied: async (n) => {
    let denied = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlmDenied.consume(DENIED_KEY);
      } catch (reason) {
        if (rejected(reason)) denied++;
      }
    }
    return denied;
  },
};

/** Context rows: RateLimiterMemory with its default keyPrefix, and the bare clock reads. */
type Extra =
  | "rlmPrefixed/hot1"
  | "rlmPrefixed/denied"
  | "clock/performance.now"
  | "clock/perf.now"
  | "clock/Date.now";

const perf = globalThis.performance;

const extraAsyncLoops: Partial<Record<Extra, AsyncLoop>> = {
  "rlmPrefixed/hot1": async (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlmPrefixed1.consume(HOT_KEY);
        allowed++;
      } catch (reason) {
        rejected(reason);
      }
    }
    return allowed;
  },
  "rlmPrefixed/denied": async (n) => {
    let denied = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlmPrefixedDenied.consume(DENIED_KEY);
      } catch (reason) {
        if (rejected(reason)) denied++;
      }
    }
    return denied;
  },
};

const extraSyncLoops: Partial<Record<Extra, SyncLoop>> = {
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

// ---------------------------------------------------------------------------------------------
// Many distinct keys: one first touch per key, then the heap the buckets hold.

interface ManyKeysCase<S> {
  create(): S;
  /** touch calls the limiter once per key and returns how many calls were allowed. */
  touch(state: S, keys: readonly string[]): number | Promise<number>;
  /** size is the number of buckets the state holds (checked against the key count). */
  size(state: S): number;
  dispose?(state: S, keys: readonly string[]): Promise<void>;
}

function manyKeysCase<S>(c: ManyKeysCase<S>): ManyKeysCase<unknown> {
  return c as ManyKeysCase<unknown>;
}

const manyKeysCases: Record<Impl, ManyKeysCase<unknown>> = {
  floor: manyKeysCase({
    create: () => new MapFloor(MANY_COUNT, MANY_PERIOD_MS),
    touch: (floor, keys) => {
      let allowed = 0;
      for (let i = 0; i < keys.length; i++) if (floor.allow(keys[i] as string)) allowed++;
      return allowed;
    },
    size: (floor) => floor.size,
  }),
  ratekeeper: manyKeysCase({
    create: () => new Limiter<string, string>(identity, limit(MANY_COUNT, "1h")),
    touch: (limiter, keys) => {
      let allowed = 0;
      for (let i = 0; i < keys.length; i++) if (limiter.allow(keys[i] as string)) allowed++;
      return allowed;
    },
    size: (limiter) => limiter.size,
  }),
  // `limiter` has no keyed store: one TokenBucket per key in a Map, created on first touch.
  tokenBucket: manyKeysCase({
    create: () => new Map<string, TokenBucket>(),
    touch: (buckets, keys) => {
      let allowed = 0;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        let bucket = buckets.get(key);
        if (bucket === undefined) {
          bucket = fullTokenBucket(MANY_COUNT, MANY_PERIOD_MS);
          buckets.set(key, bucket);
        }
        if (bucket.tryRemoveTokens(1)) allowed++;
      }
      return allowed;
    },
    size: (buckets) => buckets.size,
  }),
  rlm: manyKeysCase({
    create: () =>
      new RateLimiterMemory({
        points: MANY_COUNT,
        duration: MANY_PERIOD_MS / 1000,
        keyPrefix: "",
      }),
    touch: async (rlm, keys) => {
      let allowed = 0;
      for (let i = 0; i < keys.length; i++) {
        try {
          await rlm.consume(keys[i] as string);
          allowed++;
        } catch (reason) {
          rejected(reason);
        }
      }
      return allowed;
    },
    // Every consumed key holds one record (and one pending timer) until it expires.
    size: (rlm) =>
      (rlm as unknown as { _memoryStorage: { _storage: Map<string, unknown> } })._memoryStorage
        ._storage.size,
    // Its records hold unref'd timers that keep them alive for the whole duration: delete them
    // so the next round starts from the same heap.
    dispose: async (rlm, keys) => {
      for (let i = 0; i < keys.length; i++) await rlm.delete(keys[i] as string);
    },
  }),
};

/** ipKeys builds `count` distinct IPv4-like key strings, flat and hashed before any baseline. */
function ipKeys(count: number, first: number): string[] {
  const keys: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = first + i;
    keys[i] = `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  // Hashing each key once flattens any cons string now, so no bucket pays for it later.
  new Set(keys).clear();
  return keys;
}

interface ManyKeysRound {
  timing: Timing;
  bytesPerBucket: number;
}

async function manyKeysRound(
  c: ManyKeysCase<unknown>,
  keys: readonly string[],
): Promise<ManyKeysRound> {
  fullGc();
  const before = heapUsed();
  const state = c.create();
  const timing = await timeAsync(async () => c.touch(state, keys), keys.length);
  fullGc();
  const after = heapUsed();
  const size = c.size(state);
  if (timing.result !== keys.length || size !== keys.length) {
    throw new Error(
      `expected ${keys.length} first touches allowed and buckets held, got ${timing.result} and ${size}`,
    );
  }
  await c.dispose?.(state, keys);
  return { timing, bytesPerBucket: (after - before) / keys.length };
}

// ---------------------------------------------------------------------------------------------
// Running.

/**
 * Results by case id ("impl/workload"): the median wall-clock ns/op (the headline) and the
 * median on-CPU ns/op of the main thread (the same work without the time other processes held
 * the CPU: the figure to trust on a shared machine).
 */
type Metric = "wall" | "cpu";
const results: Record<Metric, Map<string, number>> = { wall: new Map(), cpu: new Map() };
const interference = { wallNs: 0, waitingNs: 0 };
const failures: string[] = [];

function record(id: string, timings: readonly Timing[]): void {
  results.wall.set(id, median(timings.map((t) => t.nsPerOp)));
  results.cpu.set(id, median(timings.map((t) => t.cpuNsPerOp)));
  for (const t of timings) {
    interference.wallNs += t.wallNs;
    interference.waitingNs += t.waitingNs;
  }
}

function check(what: string, got: number, want: number): void {
  if (got !== want) failures.push(`${what}: expected ${fmtInt(want)}, got ${fmtInt(got)}`);
}

/** A timed case: one loop; every call must go the expected way (all allowed, or all denied). */
interface HotCase {
  id: string;
  sync?: SyncLoop;
  async?: AsyncLoop;
}

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
  for (const [id, loop] of Object.entries(extraAsyncLoops)) cases.push({ id, async: loop });
  for (const [id, loop] of Object.entries(extraSyncLoops)) cases.push({ id, sync: loop });
  return cases;
}

async function runHot(): Promise<void> {
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

const bytesPerBucket = new Map<Impl, number>();

async function runManyKeys(): Promise<void> {
  const warmKeys = ipKeys(MANY_KEYS_WARMUP, MANY_KEYS);
  const keys = ipKeys(MANY_KEYS, 0);
  for (const impl of IMPLS) {
    const c = manyKeysCases[impl];
    const warm = c.create();
    await c.touch(warm, warmKeys);
    await c.dispose?.(warm, warmKeys);
  }
  const timings = new Map<Impl, Timing[]>();
  const bytes = new Map<Impl, number[]>();
  for (let round = 0; round < MANY_KEYS_ROUNDS; round++) {
    for (const impl of IMPLS) {
      const r = await manyKeysRound(manyKeysCases[impl], keys);
      timings.set(impl, [...(timings.get(impl) ?? []), r.timing]);
      bytes.set(impl, [...(bytes.get(impl) ?? []), r.bytesPerBucket]);
    }
  }
  for (const impl of IMPLS) {
    record(`${impl}/firstTouch`, timings.get(impl) ?? []);
    bytesPerBucket.set(impl, median(bytes.get(impl) ?? []));
  }
}

/** The contract: Ratekeeper's denied path throws nothing (every call returns false). */
interface DeniedCheck {
  calls: number;
  denials: number;
  thrown: number;
}

function checkDeniedThrowsNothing(): DeniedCheck {
  let denials = 0;
  let thrown = 0;
  for (let i = 0; i < SYNC_OPS; i++) {
    try {
      if (!rkDenied.allow(DENIED_KEY)) denials++;
    } catch {
      thrown++;
    }
  }
  return { calls: SYNC_OPS, denials, thrown };
}

/**
 * The contract: `allow` allocates nothing per call. The default clock's `performance.now()` is
 * measured alone too: on Node it returns a freshly boxed number, which is the clock's allocation,
 * not the limiter's. Ratekeeper's own share is the difference.
 */
async function probeAllocations(): Promise<[string, AllocationProbe][]> {
  const probes: [string, SyncLoop][] = [
    ["performance.now() alone", extraSyncLoops["clock/performance.now"] as SyncLoop],
    [WORKLOAD_NAMES.hot1, syncLoops.ratekeeper.hot1],
    [WORKLOAD_NAMES.hot2, syncLoops.ratekeeper.hot2],
    [WORKLOAD_NAMES.denied, syncLoops.ratekeeper.denied],
  ];
  const probed: [string, AllocationProbe][] = [];
  for (const [name, loop] of probes) probed.push([name, await probeAllocation(loop, PROBE_OPS)]);
  return probed;
}

const WORKLOADS: readonly Workload[] = ["hot1", "hot2", "denied", "firstTouch"];

function printTimes(metric: Metric): void {
  const get = (id: string) => results[metric].get(id) ?? Number.NaN;
  const cell = (impl: Impl, w: Workload) => get(`${impl}/${w}`);
  console.log(
    table(
      ["workload", ...IMPLS.map((impl) => IMPL_NAMES[impl])],
      WORKLOADS.map((w) => [
        WORKLOAD_NAMES[w],
        ...IMPLS.map((impl) => {
          const ns = cell(impl, w);
          return impl === "floor" ? fmtNs(ns) : `${fmtNs(ns)} (${fmtRatio(ns / cell("floor", w))})`;
        }),
      ]),
    ),
  );
  console.log(
    `clock reads alone: performance.now() ${fmtNs(get("clock/performance.now"))} through the ` +
      `global, ${fmtNs(get("clock/perf.now"))} through a captured \`performance\`; ` +
      `Date.now() ${fmtNs(get("clock/Date.now"))}`,
  );
}

function printSpeedups(metric: Metric): void {
  const get = (id: string) => results[metric].get(id) ?? Number.NaN;
  const cell = (impl: Impl, w: Workload) => get(`${impl}/${w}`);
  console.log(
    table(
      ["workload", "Ratekeeper", "Map floor", "Ratekeeper vs RLM, default keyPrefix"],
      WORKLOADS.map((w) => {
        const prefixed = get(`rlmPrefixed/${w}`);
        return [
          WORKLOAD_NAMES[w],
          fmtRatio(cell("rlm", w) / cell("ratekeeper", w)),
          fmtRatio(cell("rlm", w) / cell("floor", w)),
          Number.isNaN(prefixed)
            ? "-"
            : `${fmtRatio(prefixed / cell("ratekeeper", w))} (RLM ${fmtNs(prefixed)})`,
        ];
      }),
    ),
  );
}

function printTargets(metric: Metric, deniedCheck: DeniedCheck): void {
  const cell = (impl: Impl, w: Workload) => results[metric].get(`${impl}/${w}`) ?? Number.NaN;
  const ratio1 = cell("ratekeeper", "hot1") / cell("floor", "hot1");
  const ratioDenied = cell("ratekeeper", "denied") / cell("floor", "denied");
  const rkBytes = bytesPerBucket.get("ratekeeper") ?? Number.NaN;
  const speedHot = cell("rlm", "hot1") / cell("ratekeeper", "hot1");
  const speedDenied = cell("rlm", "denied") / cell("ratekeeper", "denied");
  const target = (ok: boolean, text: string) => console.log(`${ok ? "PASS" : "MISS"}  ${text}`);
  target(ratio1 <= 1.5, `1-limit hot allow within 1.5x of the Map floor: ${fmtRatio(ratio1)}`);
  target(ratioDenied <= 1.5, `denied path within 1.5x of the Map floor: ${fmtRatio(ratioDenied)}`);
  target(rkBytes <= 64, `<= 64 bytes per bucket at 1,000,000 keys: ${rkBytes.toFixed(1)} bytes`);
  target(speedHot >= 3, `>= 3x faster than RateLimiterMemory, hot allow: ${fmtRatio(speedHot)}`);
  target(speedDenied >= 3, `>= 3x faster than RateLimiterMemory, denied: ${fmtRatio(speedDenied)}`);
  target(
    deniedCheck.thrown === 0 && deniedCheck.denials === deniedCheck.calls,
    "denied path throws nothing (every call returned false)",
  );
}

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  const loadAtStart = os.loadavg()[0] ?? 0;
  const cpus = os.cpus();
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

  await runHot();
  const deniedCheck = checkDeniedThrowsNothing();
  const allocations = await probeAllocations();
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
  console.log(
    `Heap per bucket at ${fmtInt(MANY_KEYS)} keys (after gc(), key strings not counted):`,
  );
  console.log(
    table(
      ["", ...IMPLS.map((impl) => IMPL_NAMES[impl])],
      [
        [
          "bytes/bucket",
          ...IMPLS.map((impl) => (bytesPerBucket.get(impl) ?? Number.NaN).toFixed(1)),
        ],
      ],
    ),
  );
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
  console.log(
    `Ratekeeper denied path: ${fmtInt(deniedCheck.calls)} calls, ${fmtInt(deniedCheck.denials)} ` +
      `denials returned, ${fmtInt(deniedCheck.thrown)} exceptions thrown`,
  );
  console.log(`Heap allocated per call (${fmtInt(PROBE_OPS)} warmed calls, no GC in between):`);
  const clockBytes = allocations[0]?.[1].bytesPerCall ?? Number.NaN;
  for (const [i, [name, probe]] of allocations.entries()) {
    let text = `${probe.bytesPerCall.toFixed(2)} bytes/call`;
    if (i > 0) text += ` (${(probe.bytesPerCall - clockBytes).toFixed(2)} beyond the clock's)`;
    if (probe.gcs !== 0) text = `unmeasured (${probe.gcs} GCs ran mid-loop)`;
    console.log(`  ${name.padEnd(27)} ${text}`);
  }
  console.log("");

  console.log(
    'Targets (the benchmark issue), wall time; RateLimiterMemory in its fastest setup (keyPrefix ""):',
  );
  printTargets("wall", deniedCheck);
  if (disturbed) {
    console.log("The same, on-CPU time:");
    printTargets("cpu", deniedCheck);
  }

  if (failures.length > 0) {
    console.log("");
    console.log("Unexpected decisions (the figures above are suspect):");
    for (const failure of failures) console.log(`  ${failure}`);
  }
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

await main();
