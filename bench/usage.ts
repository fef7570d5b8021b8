/**
 * The usage rollups' benchmark: `npm run bench:usage` (node --expose-gc --import tsx). It seeds a
 * temporary SQLite database as 30 days of a fleet would leave it (1,000 customers, their minute
 * rows generated, then folded into hours and pruned to the 7-day minute retention, as the app's
 * fold does), then times, median of 7 runs after a warm-up each:
 *
 * - a flush of 10,000 active customer-minutes (1,000 customers x 2 operations x 5 minutes):
 *   target < 100 ms;
 * - a 30-day usage query for one customer (the busiest), hourly and daily: target < 50 ms;
 * - the whole fleet's daily totals over 30 days: target < 500 ms;
 * - and, for the record, the rankings, the per-plan aggregates, near-limit and the CSV.
 *
 * Density, from a fixed seed: 10% of customers are busy (active in 50% of minutes, 20 to 200
 * reads a minute, writes in 40% of their active minutes), 30% steady (8%, 5 to 50, 20%), 60%
 * occasional (1%, 1 to 10, 10%); about 3% of requests are denied. Printed with the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { insertCustomer } from "../db/queries/customers";
import { nearLimitsFromRollups } from "../lib/admin/near-limit";
import { plansUsage, topCustomerUsage, usageSeries } from "../lib/admin/usage";
import { usageCsv } from "../lib/admin/usage-csv";
import type { Clock } from "../lib/limiter";
import { silentLogger } from "../lib/log";
import { generateApiKey } from "../lib/policy/api-key";
import { createRuntime, type Runtime } from "../lib/runtime";
import { foldAndPrune, writeBatch } from "../lib/usage/sqlite-writer";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../lib/usage/time";
import { UsageCounter } from "../lib/usage/usage-counter";
import { fmtInt, median } from "./harness";

const CUSTOMERS = 1_000;
const DAYS = 30;
const RUNS = 7;
const START = Date.UTC(2025, 0, 1);
const NOW = START + DAYS * DAY_MS;
const TARGETS = { flushMs: 100, customerQueryMs: 50, fleetDailyMs: 500 };

/** mulberry32 is a small seeded PRNG: the same fleet every run. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Profile {
  active: number;
  reads: [number, number];
  writes: number;
}
const PROFILES: [share: number, profile: Profile][] = [
  [0.1, { active: 0.5, reads: [20, 200], writes: 0.4 }],
  [0.3, { active: 0.08, reads: [5, 50], writes: 0.2 }],
  [0.6, { active: 0.01, reads: [1, 10], writes: 0.1 }],
];

function timeMs(work: () => unknown): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** seed stores the customers and 30 days of minute rows, a day per transaction, in time order. */
function seed(runtime: Runtime): { ids: number[]; busiest: number; rows: number } {
  const random = mulberry32(42);
  const plans = [...runtime.policy.snapshot.byId.values()][0]?.planId ?? 1;
  const ids: number[] = [];
  const profiles: Profile[] = [];
  runtime.db.transaction((tx) => {
    for (let i = 0; i < CUSTOMERS; i++) {
      const key = generateApiKey();
      ids.push(
        insertCustomer(
          tx,
          {
            name: `Customer ${i}`,
            planId: plans + (i % 3),
            apiKeyHash: key.hash,
            apiKeyPrefix: key.prefix,
          },
          START,
        ),
      );
      const u = random();
      let acc = 0;
      const found = PROFILES.find(([share]) => (acc += share) >= u) ?? PROFILES[2];
      profiles.push((found as [number, Profile])[1]);
    }
  });
  runtime.policy.applyEdit();
  const insert = runtime.sqlite.prepare(
    `INSERT INTO usage_minutes (start_ms, customer_id, operation, plan_id, allowed, denied,
       unavailable, tokens_requested, tokens_taken) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)`,
  );
  const planOf = ids.map((_, i) => plans + (i % 3));
  let rows = 0;
  let busiest = ids[0] as number;
  let most = 0;
  const taken = new Map<number, number>();
  for (let day = 0; day < DAYS; day++) {
    const dayRows: [number, number, string, number, number, number][] = [];
    ids.forEach((id, i) => {
      const p = profiles[i] as Profile;
      // Skip from one active minute to the next: geometric gaps for a Bernoulli(p) per minute.
      let minute = Math.floor(Math.log(1 - random()) / Math.log(1 - p.active));
      while (minute < 1_440) {
        const startMs = START + day * DAY_MS + minute * MINUTE_MS;
        const reads = p.reads[0] + Math.floor(random() * (p.reads[1] - p.reads[0] + 1));
        const denied = random() < 0.1 ? Math.ceil(reads * 0.3) : 0;
        dayRows.push([startMs, id, "read", reads - denied, denied, planOf[i] as number]);
        taken.set(id, (taken.get(id) ?? 0) + reads - denied);
        if (random() < p.writes) {
          const writes = 1 + Math.floor(random() * 5);
          dayRows.push([startMs, id, "write", writes, 0, planOf[i] as number]);
        }
        minute += 1 + Math.floor(Math.log(1 - random()) / Math.log(1 - p.active));
      }
    });
    dayRows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    runtime.sqlite.transaction(() => {
      for (const [startMs, id, op, allowed, denied, planId] of dayRows) {
        insert.run(startMs, id, op, planId, allowed, denied, allowed + denied, allowed);
      }
    })();
    rows += dayRows.length;
  }
  for (const [id, n] of taken) {
    if (n > most) {
      most = n;
      busiest = id;
    }
  }
  return { ids, busiest, rows };
}

/** measure runs `work` once to warm up, then RUNS times, and returns the median in ms. */
function measure(work: () => unknown): number {
  work();
  return median(Array.from({ length: RUNS }, () => timeMs(work)));
}

function main(): void {
  // --keep leaves the seeded database in place (its path printed) for a later look.
  const keep = process.argv.includes("--keep");
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-bench-usage-"));
  let now = NOW;
  const clock: Clock = { now: () => now, sleep: async () => {} };
  const runtime = createRuntime({
    databasePath: path.join(dir, "usage.db"),
    clock,
    adminPassword: "bench-password",
    log: silentLogger,
    usage: { timers: false },
  });
  try {
    console.log(
      `Usage rollups benchmark: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load ${os.loadavg()[0]?.toFixed(2)}`,
    );
    let seeded: ReturnType<typeof seed> | undefined;
    const seedMs = timeMs(() => {
      seeded = seed(runtime);
    });
    const { ids, busiest, rows } = seeded as ReturnType<typeof seed>;
    const settings = runtime.usageSettings;
    let folded: ReturnType<typeof foldAndPrune> | undefined;
    const foldMs = timeMs(() => {
      folded = foldAndPrune(runtime.db, NOW, {
        minuteRetentionMs: settings.minuteRetentionDays * DAY_MS,
        hourRetentionMs: settings.hourRetentionDays * DAY_MS,
        maxSpanMs: 31 * DAY_MS,
      });
    });
    const count = (table: string) =>
      (runtime.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    console.log(
      `seeded ${fmtInt(CUSTOMERS)} customers and ${fmtInt(rows)} minute rows over ${DAYS} days ` +
        `(${fmtInt(Math.round(rows / DAYS))} a day) in ${(seedMs / 1000).toFixed(1)} s; ` +
        `the fold of ${DAYS} days and the prune took ${(foldMs / 1000).toFixed(1)} s, leaving ` +
        `${fmtInt(count("usage_minutes"))} minute rows (${settings.minuteRetentionDays} days) and ` +
        `${fmtInt(count("usage_hours"))} hour rows; watermark ${new Date(folded?.watermarkMs ?? 0).toISOString()}\n`,
    );

    // A flush of 10,000 customer-minutes: 1,000 customers x 2 operations x 5 minutes, each run
    // on minutes of its own (new rows), then the same minutes again (additive updates).
    let window = 0;
    const counter = new UsageCounter();
    const fill = (base: number) => {
      for (let m = 0; m < 5; m++) {
        for (const id of ids) {
          counter.record(id, 1, "read", "allowed", 3, 3, base + m * MINUTE_MS);
          counter.record(id, 1, "write", "denied", 1, 0, base + m * MINUTE_MS);
        }
      }
    };
    const flushNew = measure(() => {
      fill(NOW + ++window * 5 * MINUTE_MS);
      const batch = counter.drain();
      if (batch.rows.length !== 10_000)
        throw new Error(`expected 10,000 rows, got ${batch.rows.length}`);
      writeBatch(runtime.db, batch);
    });
    const flushAgain = measure(() => {
      fill(NOW + 5 * MINUTE_MS);
      writeBatch(runtime.db, counter.drain());
    });
    let drainMs = 0;
    fill(NOW + 1_000 * MINUTE_MS);
    drainMs = timeMs(() => counter.drain());
    now = NOW + HOUR_MS;

    const thirtyDays = { from: NOW - DAYS * DAY_MS, to: NOW };
    const ok = <T>(o: { ok: true; value: T } | { ok: false; title: string }): T => {
      if (!o.ok) throw new Error(o.title);
      return o.value;
    };
    const customerHourly = measure(() =>
      ok(usageSeries(runtime, { ...thirtyDays, granularity: "hour", customerId: busiest })),
    );
    const customerDaily = measure(() =>
      ok(usageSeries(runtime, { ...thirtyDays, granularity: "day", customerId: busiest })),
    );
    const customerMinutes = measure(() =>
      ok(
        usageSeries(runtime, {
          from: NOW - DAY_MS,
          to: NOW,
          granularity: "minute",
          customerId: busiest,
        }),
      ),
    );
    const fleetDaily = measure(() =>
      ok(usageSeries(runtime, { ...thirtyDays, granularity: "day" })),
    );
    const fleet = ok(usageSeries(runtime, { ...thirtyDays, granularity: "day" }));
    const topMs = measure(() => ok(topCustomerUsage(runtime, thirtyDays)));
    const plansMs = measure(() => ok(plansUsage(runtime, thirtyDays)));
    const near24 = measure(() =>
      ok(nearLimitsFromRollups(runtime, { from: NOW - DAY_MS, to: NOW })),
    );
    const csvMs = measure(() => ok(usageCsv(runtime, thirtyDays)));
    // Deleting a customer takes its rows with it (a scan of the minute rows: they have no index
    // by customer). Once, on a customer of the seeded fleet.
    const deleteMs = timeMs(() =>
      runtime.sqlite.prepare("DELETE FROM customers WHERE id = ?").run(ids[ids.length - 1]),
    );

    const lines: [string, number, number | undefined][] = [
      ["flush of 10,000 customer-minutes, new rows", flushNew, TARGETS.flushMs],
      ["flush of 10,000 customer-minutes, adding to existing rows", flushAgain, TARGETS.flushMs],
      ["  of which draining the counter", drainMs, undefined],
      ["one customer (the busiest), 30 days by hour", customerHourly, TARGETS.customerQueryMs],
      ["one customer (the busiest), 30 days by day", customerDaily, TARGETS.customerQueryMs],
      ["one customer (the busiest), 24 hours by minute", customerMinutes, undefined],
      ["the fleet's daily totals, 30 days", fleetDaily, TARGETS.fleetDailyMs],
      ["top customers by denials and usage, 30 days", topMs, undefined],
      ["per-plan aggregates, 30 days", plansMs, undefined],
      ["customers near their limit, 24 hours (minutes)", near24, undefined],
      ["CSV export, the fleet, 30 days", csvMs, undefined],
      ["deleting a customer with its rows (once)", deleteMs, undefined],
    ];
    for (const [what, ms, target] of lines) {
      const verdict = target === undefined ? "    " : ms < target ? "PASS" : "MISS";
      const bound = target === undefined ? "" : ` (target < ${target} ms)`;
      console.log(`${verdict}  ${what}: ${ms.toFixed(1)} ms${bound}`);
    }
    console.log(
      `\n(fleet over 30 days: ${fmtInt(fleet.totals.allowed)} allowed, ${fmtInt(fleet.totals.denied)} denied)`,
    );
    if (lines.some(([, ms, target]) => target !== undefined && ms >= target)) process.exitCode = 1;
  } finally {
    runtime.close();
    if (keep) console.log(`database kept: ${path.join(dir, "usage.db")}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main();
