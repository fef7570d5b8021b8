/**
 * The quota benchmark: a hot-key decision over two token buckets and a monthly quota against
 * one over the same two buckets alone, in one process, rounds alternated, medians compared to
 * QUOTA_FLOOR. `npm run bench:quota` (node --expose-gc --import tsx).
 *
 * Both limiters read the app's epoch clock (quotas need one), so the only difference is the
 * quota: its state lookup, the calendar's cached period and the used count's write.
 */
import { appClock } from "../lib/clock";
import { Limiter, limit, quota } from "../lib/limiter";
import { fmtNs, fmtRatio, median, type SyncLoop, type Timing, table, timeSync } from "./harness";
import {
  HOT_COUNT,
  HOT_KEY,
  HOT2_COUNT,
  SYNC_OPS,
  TIMED_ROUNDS,
  WARMUP_ROUNDS,
} from "./parameters";
import { check, failures, printFailures } from "./results";

/** QUOTA_FLOOR: two buckets and a monthly quota may cost at most this many times two buckets. */
const QUOTA_FLOOR = 1.3;
/** QUOTA_COUNT never runs dry within the benchmark. */
const QUOTA_COUNT = 1e15;

const identity = (key: string) => key;
const options = { clock: appClock };
const twoBuckets = new Limiter<string, string>(
  identity,
  [limit(HOT_COUNT, "1s"), limit(HOT2_COUNT, "1m")],
  options,
);
const withQuota = new Limiter<string, string>(
  identity,
  [limit(HOT_COUNT, "1s"), limit(HOT2_COUNT, "1m"), quota(QUOTA_COUNT, "month")],
  options,
);
const withQuotaInZone = new Limiter<string, string>(
  identity,
  [
    limit(HOT_COUNT, "1s"),
    limit(HOT2_COUNT, "1m"),
    quota(QUOTA_COUNT, "month", { timeZone: "Europe/Berlin", anchorDay: 31 }),
  ],
  options,
);

type CaseId = "twoBuckets" | "withQuota" | "withQuotaInZone";

/** CASES: one loop literal per case, so each call site stays monomorphic. */
const CASES: Record<CaseId, { name: string; loop: SyncLoop }> = {
  twoBuckets: {
    name: "hot key, 2 limits, allowed",
    loop: (n) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if (twoBuckets.allow(HOT_KEY)) allowed++;
      return allowed;
    },
  },
  withQuota: {
    name: "hot key, 2 limits + monthly quota (UTC), allowed",
    loop: (n) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if (withQuota.allow(HOT_KEY)) allowed++;
      return allowed;
    },
  },
  withQuotaInZone: {
    name: "hot key, 2 limits + monthly quota (Europe/Berlin, anchor 31), allowed",
    loop: (n) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if (withQuotaInZone.allow(HOT_KEY)) allowed++;
      return allowed;
    },
  },
};

function main(): void {
  const ids = Object.keys(CASES) as CaseId[];
  const samples = new Map<CaseId, Timing[]>(ids.map((id) => [id, []]));
  for (let round = 0; round < WARMUP_ROUNDS + TIMED_ROUNDS; round++) {
    // Alternate the order too, so neither case always runs first in a round.
    const order = round % 2 === 0 ? ids : [...ids].reverse();
    for (const id of order) {
      const timing = timeSync(CASES[id].loop, SYNC_OPS);
      check(`${id}, round ${round}`, timing.result, SYNC_OPS);
      if (round >= WARMUP_ROUNDS) samples.get(id)?.push(timing);
    }
  }
  const wall = (id: CaseId) => median((samples.get(id) ?? []).map((t) => t.nsPerOp));
  const cpu = (id: CaseId) => median((samples.get(id) ?? []).map((t) => t.cpuNsPerOp));
  console.log(
    `Quota decisions (in memory, ${WARMUP_ROUNDS} warm-up + ${TIMED_ROUNDS} timed rounds alternated, ${SYNC_OPS.toLocaleString("en-US")} calls each, median), ratio to 2 limits:`,
  );
  console.log(
    table(
      ["case", "wall", "ratio", "on-CPU", "ratio"],
      ids.map((id) => [
        CASES[id].name,
        fmtNs(wall(id)),
        fmtRatio(wall(id) / wall("twoBuckets")),
        fmtNs(cpu(id)),
        fmtRatio(cpu(id) / cpu("twoBuckets")),
      ]),
    ),
  );
  for (const id of ["withQuota", "withQuotaInZone"] as const) {
    const ratio = wall(id) / wall("twoBuckets");
    const cpuRatio = cpu(id) / cpu("twoBuckets");
    const ok = ratio <= QUOTA_FLOOR;
    console.log(
      `${ok ? "PASS" : "MISS"}  ${CASES[id].name} within ${QUOTA_FLOOR}x of 2 limits: ${fmtRatio(ratio)} wall, ${fmtRatio(cpuRatio)} on-CPU`,
    );
  }
  printFailures();
  if (failures.length > 0) process.exitCode = 1;
}

main();
