/**
 * The dashboard at scale: `npm run bench:dashboard` (tsx). It seeds a temporary database as
 * `npm run db:seed-large` does (50 plans, 10,000 customers, 100,000 audit entries), gives 500 of
 * the customers some traffic, starts the built server (`npm start`'s entry) on it over
 * 127.0.0.1, signs in, and times every dashboard page's HTML and every admin API answer a page
 * needs for its first render, searches and filters included: 5 warm-up requests each, then 30
 * timed ones in turn, each timed from sending the request to reading the whole body.
 *
 * TARGET_MS is the floor: every request's p95 must stay under it, or the bench exits 1.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../db/client";
import { LARGE_SEED, seedLarge } from "../db/seed-large";
import { generateApiKey } from "../lib/policy/api-key";
import { encodeCursor } from "../lib/schemas/list.schema";
import { buildIfMissing, startNext } from "./next-server";

/** TARGET_MS is the most a page's HTML or an API answer may take at p95 on the seeded database. */
const TARGET_MS = 300;
const WARMUP = 5;
const RUNS = 30;
const CUSTOMERS_WITH_TRAFFIC = 500;
const PASSWORD = "bench-dashboard-password";

interface Row {
  name: string;
  path: string;
  bytes: number;
  firstMs: number;
  p50: number;
  p95: number;
  max: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function main() {
  const root = process.cwd();
  buildIfMissing(root, "/(dashboard)/customers/page");
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-bench-dashboard-"));
  const databasePath = path.join(dir, "large.db");
  const keys: string[] = [];
  const started = performance.now();
  const { sqlite } = openDatabase(databasePath);
  seedLarge(
    sqlite,
    LARGE_SEED,
    () => {
      const key = generateApiKey();
      if (keys.length < CUSTOMERS_WITH_TRAFFIC) keys.push(key.key);
      return key;
    },
    Date.now(),
  );
  const sample = sqlite
    .prepare("SELECT id, name, api_key_prefix AS prefix FROM customers WHERE id = 4321")
    .get() as { id: number; name: string; prefix: string };
  const planId = (sqlite.prepare("SELECT id FROM plans LIMIT 1 OFFSET 20").get() as { id: number })
    .id;
  sqlite.close();
  console.log(
    `Seeded ${LARGE_SEED.customers.toLocaleString("en-US")} customers, ${LARGE_SEED.plans} plans, ${LARGE_SEED.auditEntries.toLocaleString("en-US")} audit entries in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );

  const loadBefore = os.loadavg()[0] as number;
  const server = await startNext(root, { DATABASE_PATH: databasePath, ADMIN_PASSWORD: PASSWORD });
  const rows: Row[] = [];
  try {
    const login = await fetch(`${server.url}/api/admin/session`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;

    // Traffic for 500 customers: the traffic sort and each row's counts have work to do.
    for (let i = 0; i < keys.length; i += 25) {
      await Promise.all(
        keys.slice(i, i + 25).map((key) =>
          fetch(`${server.url}/api/v1/items`, {
            headers: { authorization: `Bearer ${key}` },
          }).then((r) => r.arrayBuffer()),
        ),
      );
    }

    const mid = encodeCursor(["Monarch", 0]);
    const older = encodeCursor([Date.now() - 45 * 86_400_000, 0]);
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const to = new Date(Date.now() - 6 * 86_400_000).toISOString();
    const targets: [string, string][] = [
      ["page: overview", "/overview"],
      ["page: plans", "/plans"],
      ["page: plan editor", `/plans/${planId}`],
      ["page: new plan", "/plans/new"],
      ["page: customers", "/customers"],
      ["page: customers, searched", "/customers?q=acme&sort=name"],
      ["page: key inspector", `/customers/${sample.id}`],
      ["page: simulator", "/simulator"],
      ["page: audit log", "/audit"],
      ["page: audit log, filtered", "/audit?action=customer.reset-buckets"],
      ["api: customers, newest", "/api/admin/customers"],
      ["api: customers, by name", "/api/admin/customers?sort=name"],
      ["api: customers, by name, mid-list", `/api/admin/customers?sort=name&after=${mid}`],
      ["api: customers, by traffic", "/api/admin/customers?sort=traffic"],
      ["api: search by name", "/api/admin/customers?q=globex"],
      ["api: search by name, by name", "/api/admin/customers?q=labs&sort=name"],
      ["api: search by key prefix", `/api/admin/customers?q=${sample.prefix}`],
      ["api: search by id", `/api/admin/customers?q=%23${sample.id}`],
      ["api: customers, plan + status", `/api/admin/customers?plan=${planId}&status=suspended`],
      ["api: plans (all)", "/api/admin/plans"],
      ["api: plan", `/api/admin/plans/${planId}`],
      ["api: customer", `/api/admin/customers/${sample.id}`],
      ["api: inspect", `/api/admin/customers/${sample.id}/inspect`],
      ["api: traffic, 5 min", "/api/admin/traffic?seconds=300"],
      ["api: audit, newest", "/api/admin/audit"],
      ["api: audit, 45 days back", `/api/admin/audit?after=${older}`],
      ["api: audit by action", "/api/admin/audit?action=override.set"],
      ["api: audit by actor", "/api/admin/audit?actor=token%3Adeploy-bot"],
      ["api: audit by customer", `/api/admin/audit?customer=${sample.id}`],
      ["api: audit, one day", `/api/admin/audit?from=${from}&to=${to}`],
    ];
    for (const [name, target] of targets) {
      const time = async () => {
        const t0 = performance.now();
        const res = await fetch(`${server.url}${target}`, { headers: { cookie } });
        const body = await res.arrayBuffer();
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`${target} answered ${res.status}`);
        return { ms, bytes: body.byteLength };
      };
      const first = await time();
      for (let i = 1; i < WARMUP; i++) await time();
      const samples: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await time();
        samples.push(r.ms);
        bytes = r.bytes;
      }
      samples.sort((a, b) => a - b);
      rows.push({
        name,
        path: target,
        bytes,
        firstMs: first.ms,
        p50: quantile(samples, 0.5),
        p95: quantile(samples, 0.95),
        max: samples.at(-1) as number,
      });
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const f = (ms: number) => ms.toFixed(1);
  console.log(
    `\n${os.cpus().length} CPUs; load average ${loadBefore.toFixed(1)} before, ${(os.loadavg()[0] as number).toFixed(1)} after.`,
  );
  console.log(`\n| request | first | p50 | p95 | max | body |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: |`);
  for (const r of rows)
    console.log(
      `| ${r.name} | ${f(r.firstMs)} ms | ${f(r.p50)} ms | ${f(r.p95)} ms | ${f(r.max)} ms | ${(r.bytes / 1024).toFixed(1)} KiB |`,
    );
  const slow = rows.filter((r) => r.p95 >= TARGET_MS);
  const worst = rows.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  console.log(
    `\nSlowest p95: ${worst.name}, ${f(worst.p95)} ms (target: every p95 under ${TARGET_MS} ms).`,
  );
  if (slow.length > 0) {
    console.error(`Over the target: ${slow.map((r) => r.name).join(", ")}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
