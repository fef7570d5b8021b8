/**
 * The decision path in the limiter benchmark: `decide()` itself (the app's one decision path,
 * with the in-memory store, the counters and the usage rollups, as a protected request runs it)
 * with one enforced limit, with one enforced and one dry-run limit, and with the usage rollups
 * switched off, interleaved in one run. And the usage counter's allocation per decision.
 */
import { appClock } from "../lib/clock";
import { createMetrics } from "../lib/metrics";
import { type DecisionContext, decide } from "../lib/policy/decide";
import { MemoryDecisionStore } from "../lib/policy/decision-store";
import { createPolicyLimiter } from "../lib/policy/policy-limiter";
import { buildSnapshot, type CustomerPolicy } from "../lib/policy/snapshot";
import { TrafficLog } from "../lib/usage/traffic-log";
import { UsageCounter, type UsageRecorder } from "../lib/usage/usage-counter";
import type { AnyLimitRow, LimitRow } from "../lib/vocabulary";
import {
  type AllocationProbe,
  fmtNs,
  fmtRatio,
  median,
  probeAllocation,
  type Timing,
  table,
  timeAsync,
} from "./harness";
import { HOT_COUNT, HOT2_COUNT, PROBE_OPS, TIMED_ROUNDS, WARMUP_ROUNDS } from "./parameters";
import { check } from "./results";

/** DECIDE_OPS is the number of decisions per timed round (each awaited, as a route awaits it). */
const DECIDE_OPS = 200_000;

/**
 * DRY_RUN_FLOOR: a decision with one enforced and one dry-run limit may cost at most this many
 * times one with the enforced limit alone (the dry-run limit is a second decision on its own
 * bucket; the floor leaves room for that, and catches anything beyond).
 */
const DRY_RUN_FLOOR = 1.6;
/** ROLLUP_FLOOR: counting a decision into the usage rollups may add at most this much. */
const ROLLUP_FLOOR = 1.15;
/**
 * QUOTA_FLOOR: a decision against two buckets and a monthly quota may cost at most this many
 * times one against the two buckets alone.
 */
const QUOTA_FLOOR = 1.3;

const enforced: LimitRow = { operation: "read", count: HOT_COUNT, periodMs: 1_000 };
const NOTHING: UsageRecorder = { record() {}, recordDryRun() {} };

type CaseId =
  | "enforced"
  | "dryRun"
  | "dryRunRefusing"
  | "noRollups"
  | "twoBuckets"
  | "twoBucketsQuota";

const second: LimitRow = { operation: "read", count: HOT2_COUNT, periodMs: 60_000 };
/** A monthly quota no round uses up (the bench builds the snapshot: no stored bound). */
const monthly: AnyLimitRow = {
  operation: "read",
  count: Number.MAX_SAFE_INTEGER,
  period: "month",
  timeZone: "Europe/Berlin",
};

const CASES: Record<CaseId, { name: string; limits: AnyLimitRow[]; rollups: boolean }> = {
  enforced: { name: "1 enforced limit", limits: [enforced], rollups: true },
  dryRun: {
    name: "1 enforced + 1 dry-run limit",
    limits: [enforced, { operation: "read", count: HOT2_COUNT, periodMs: 60_000, dryRun: true }],
    rollups: true,
  },
  dryRunRefusing: {
    name: "1 enforced + 1 dry-run limit that would refuse (counted)",
    limits: [enforced, { operation: "read", count: 1, periodMs: 3_600_000, dryRun: true }],
    rollups: true,
  },
  noRollups: { name: "1 enforced limit, usage rollups off", limits: [enforced], rollups: false },
  twoBuckets: { name: "2 enforced limits", limits: [enforced, second], rollups: true },
  twoBucketsQuota: {
    name: "2 enforced limits + a monthly quota",
    limits: [enforced, second, monthly],
    rollups: true,
  },
};

/** contextFor builds one case's own decision context, store and customer. */
function contextFor(c: (typeof CASES)[CaseId]): { ctx: DecisionContext; customer: CustomerPolicy } {
  const snapshot = buildSnapshot(
    {
      plans: [{ id: 1, slug: "bench", name: "Bench", limits: c.limits }],
      customers: [
        { id: 1, name: "bench", status: "active", planId: 1, apiKeyHash: "h", billingAnchorDay: 1 },
      ],
      overrides: [],
      serviceTokens: [],
    },
    appClock.now(),
  );
  const limiter = createPolicyLimiter(appClock);
  limiter.close();
  const ctx: DecisionContext = {
    decisions: new MemoryDecisionStore(limiter),
    clock: appClock,
    metrics: createMetrics(() => limiter.size),
    traffic: new TrafficLog(300),
    usage: c.rollups ? new UsageCounter() : NOTHING,
  };
  return { ctx, customer: snapshot.byId.get(1) as CustomerPolicy };
}

/** decideResults holds each case's median ns per decision. */
const decideResults = new Map<CaseId, number>();

/** runDecide times every case, interleaved round by round, and records the medians. */
export async function runDecide(): Promise<void> {
  const built = Object.entries(CASES).map(([id, c]) => ({ id: id as CaseId, ...contextFor(c) }));
  const samples = new Map<CaseId, Timing[]>();
  for (let round = 0; round < WARMUP_ROUNDS + TIMED_ROUNDS; round++) {
    for (const { id, ctx, customer } of built) {
      const timing = await timeAsync(async (n) => {
        let allowed = 0;
        for (let i = 0; i < n; i++) if ((await decide(ctx, customer, "read", 1)).allowed) allowed++;
        return allowed;
      }, DECIDE_OPS);
      check(`decide ${id}, round ${round}`, timing.result, DECIDE_OPS);
      if (round >= WARMUP_ROUNDS) samples.set(id, [...(samples.get(id) ?? []), timing]);
    }
  }
  for (const [id, timings] of samples) decideResults.set(id, median(timings.map((t) => t.nsPerOp)));
}

/** probeUsageCounter measures the heap a usage counter takes per recorded decision. */
export async function probeUsageCounter(): Promise<AllocationProbe> {
  const counter = new UsageCounter();
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  return probeAllocation((n) => {
    for (let i = 0; i < n; i++) counter.record(i % 1_000, 1, "read", "allowed", 1, 1, now);
    return n;
  }, PROBE_OPS);
}

/** printDecide prints each case's time per decision and ratio, then PASS or MISS per floor. */
export function printDecide(allocation: AllocationProbe): void {
  const base = decideResults.get("enforced") ?? Number.NaN;
  console.log(
    `decide() per decision (in memory, awaited, ${DECIDE_OPS.toLocaleString("en-US")} per round, median), ratio to 1 enforced limit:`,
  );
  console.log(
    table(
      ["case", "time", "ratio"],
      (Object.keys(CASES) as CaseId[]).map((id) => {
        const ns = decideResults.get(id) ?? Number.NaN;
        return [CASES[id].name, fmtNs(ns), fmtRatio(ns / base)];
      }),
    ),
  );
  const bytes =
    allocation.gcs === 0
      ? `${allocation.bytesPerCall.toFixed(2)} bytes`
      : `unmeasured (${allocation.gcs} GCs ran mid-loop)`;
  console.log(`usage counter, heap allocated per recorded decision (1,000 customers): ${bytes}`);
  const dry = (decideResults.get("dryRun") ?? Number.NaN) / base;
  const rollups = base / (decideResults.get("noRollups") ?? Number.NaN);
  const target = (ok: boolean, text: string) => console.log(`${ok ? "PASS" : "MISS"}  ${text}`);
  target(
    dry <= DRY_RUN_FLOOR,
    `a dry-run limit within ${DRY_RUN_FLOOR}x of the enforced one: ${fmtRatio(dry)}`,
  );
  target(
    rollups <= ROLLUP_FLOOR,
    `usage rollups within ${ROLLUP_FLOOR}x of none: ${fmtRatio(rollups)}`,
  );
  const quota =
    (decideResults.get("twoBucketsQuota") ?? Number.NaN) /
    (decideResults.get("twoBuckets") ?? Number.NaN);
  target(
    quota <= QUOTA_FLOOR,
    `a monthly quota beside two buckets within ${QUOTA_FLOOR}x of the two alone: ${fmtRatio(quota)}`,
  );
  target(
    allocation.gcs === 0 && allocation.bytesPerCall < 1,
    "the usage counter allocates nothing per decision",
  );
}
