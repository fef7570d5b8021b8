/**
 * The HTTP benchmark: the built app under its server entry (`npm start`), on a temporary SQLite file, loaded by
 * autocannon over 127.0.0.1. `npm run bench:http` (tsx). It measures
 *
 * (a) what protection costs: GET /api/v1/items (key lookup, limiter decision, RateLimit fields,
 *     counters) against its unprotected twin GET /api/bench/items (the same query and JSON),
 *     run alternately (A B B A A B B A, 5 s each) after a warmup of each, on a plan whose limits never deny;
 * (b) exactness under concurrency: K = 100 reads per hour, 2,000 requests over 50 connections,
 *     must give exactly K answers 200 and the rest 429, as counted by autocannon and by the
 *     server's own /api/metrics.
 *
 * With `--redis` (`npm run bench:http -- --redis`) the server keeps its buckets in a redis-server
 * the benchmark starts on a loopback port, so (a) prices a decision made in Redis.
 *
 * The customers are created before the server starts, by opening the same SQLite file here
 * (migrating and seeding it as the server would) and storing them with known keys.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { insertCustomer } from "../db/queries/customers";
import { insertItems } from "../db/queries/items";
import { insertPlan } from "../db/queries/plans";
import { silentLogger } from "../lib/log";
import { generateApiKey } from "../lib/policy/api-key";
import { createRuntime } from "../lib/runtime";
import type { LimitRow } from "../lib/vocabulary";
import { type RedisServer, startRedisServer } from "../test/support/redis-server";
import { buildIfMissing, type NextServer, startNext } from "./next-server";

const WARMUP_SECONDS = 3;
const RUN_SECONDS = 5;
const CONNECTIONS = 10;
/**
 * ORDER alternates the protected (A) and unprotected (B) runs as A B B A, twice: a steady drift in
 * the machine's speed (the server still warming up, other load coming or going) then weighs on
 * both means alike, where A B A B would favour B, which always runs second; short runs, many
 * alternations, so a passing burst of other load lands on both.
 */
const ORDER = ["A", "B", "B", "A", "A", "B", "B", "A"] as const;
const ITEMS = 20;
const EXACT_LIMIT = 100;
const EXACT_REQUESTS = 2_000;
const EXACT_CONNECTIONS = 50;
const HOUR_MS = 3_600_000;

interface Fixture {
  open: { id: number; key: string };
  exact: { id: number; key: string };
}

/** seed migrates the database file and stores the two bench plans and customers. */
function seed(databasePath: string, adminPassword: string): Fixture {
  const runtime = createRuntime({ databasePath, adminPassword, log: silentLogger });
  try {
    const now = Date.now();
    const customer = (slug: string, limits: LimitRow[]) => {
      const plan = insertPlan(runtime.db, { slug, name: slug, description: "bench", limits }, now);
      const apiKey = generateApiKey();
      const id = insertCustomer(
        runtime.db,
        { name: slug, planId: plan.id, apiKeyHash: apiKey.hash, apiKeyPrefix: apiKey.prefix },
        now,
      );
      return { id, key: apiKey.key };
    };
    // Two read limits, like a real plan (burst and sustained), far above what a run can reach.
    const open = customer("bench-open", [
      { operation: "read", count: 1_000_000, periodMs: 1_000 },
      { operation: "read", count: 1_000_000, periodMs: 60_000 },
      { operation: "write", count: 1_000, periodMs: 1_000 },
    ]);
    const exact = customer("bench-exact", [
      { operation: "read", count: EXACT_LIMIT, periodMs: HOUR_MS },
      { operation: "write", count: 1, periodMs: HOUR_MS },
    ]);
    const items = Array.from({ length: ITEMS }, (_, i) => ({ name: `item ${i}`, quantity: i }));
    insertItems(runtime.db, open.id, items, now);
    return { open, exact };
  } finally {
    runtime.close();
  }
}

interface Run {
  label: string;
  route: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function load(
  label: string,
  route: string,
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<Run> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  return {
    label,
    route,
    reqPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** decisions reads the server's decision counters for one plan's reads. */
async function decisions(base: string, plan: string): Promise<{ allowed: number; denied: number }> {
  const text = await (await fetch(`${base}/api/metrics`)).text();
  const count = (outcome: string) => {
    const prefix = `ratekeeper_decisions_total{plan="${plan}",operation="read",outcome="${outcome}"} `;
    const line = text.split("\n").find((l) => l.startsWith(prefix));
    return line ? Number(line.slice(prefix.length)) : 0;
  };
  return { allowed: count("allowed"), denied: count("denied") };
}

async function sameBody(a: Response, b: Response): Promise<void> {
  if (a.status !== 200 || b.status !== 200) {
    throw new Error(`Expected two 200s before measuring, got ${a.status} and ${b.status}`);
  }
  const [left, right] = [await a.text(), await b.text()];
  if (left !== right) throw new Error("The protected route and its twin answer differently");
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function printRuns(runs: Run[]): void {
  const rows = [
    ["run", "route", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors"],
    ...runs.map((r) => [
      r.label,
      r.route,
      fmt(r.reqPerSec),
      fmt(r.p50Ms),
      fmt(r.p99Ms),
      fmt(r.non2xx),
      fmt(r.errors),
    ]),
  ];
  const widths =
    rows[0]?.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? "").length))) ?? [];
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(" | ")} |`);
    if (i === 0) console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
  }
}

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

async function main(): Promise<void> {
  const root = process.cwd();
  buildIfMissing(root, "/api/bench/items");
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-bench-"));
  let server: NextServer | undefined;
  let redis: RedisServer | undefined;
  const stop = async () => {
    await server?.stop();
    await redis?.close();
  };
  process.once("SIGINT", () => {
    stop();
    process.exit(130);
  });
  try {
    const adminPassword = randomBytes(12).toString("base64url");
    const databasePath = path.join(dir, "bench.db");
    const fixture = seed(databasePath, adminPassword);
    const env: Record<string, string> = {
      DATABASE_PATH: databasePath,
      ADMIN_PASSWORD: adminPassword,
      RATEKEEPER_BENCH: "1",
    };
    if (process.argv.includes("--redis")) {
      redis = await startRedisServer();
      env.REDIS_URL = redis.url;
    }
    server = await startNext(root, env);
    const base = server.url;
    console.log(`server on ${base}, database ${databasePath}`);
    console.log(`buckets: ${redis ? `in Redis at ${redis.url}` : "in memory"}`);
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), ` +
        `${CONNECTIONS} connections, ${RUN_SECONDS} s per run after ${WARMUP_SECONDS} s warmups\n`,
    );

    const protectedUrl = `${base}/api/v1/items`;
    const protectedHeaders = { authorization: `Bearer ${fixture.open.key}` };
    const twinUrl = `${base}/api/bench/items?customer=${fixture.open.id}`;
    await sameBody(await fetch(protectedUrl, { headers: protectedHeaders }), await fetch(twinUrl));
    await load("warmup", "protected", protectedUrl, protectedHeaders, WARMUP_SECONDS);
    await load("warmup", "unprotected", twinUrl, {}, WARMUP_SECONDS);
    const runs: Run[] = [];
    const seen = { A: 0, B: 0 };
    for (const which of ORDER) {
      const label = `${which}${++seen[which]}`;
      runs.push(
        which === "A"
          ? await load(label, "protected", protectedUrl, protectedHeaders, RUN_SECONDS)
          : await load(label, "unprotected", twinUrl, {}, RUN_SECONDS),
      );
    }
    printRuns(runs);
    const a = runs.filter((r) => r.route === "protected");
    const b = runs.filter((r) => r.route === "unprotected");
    const ratio = mean(a.map((r) => r.reqPerSec)) / mean(b.map((r) => r.reqPerSec));
    console.log(
      `\nprotected/unprotected throughput: ${fmt(ratio, 3)} ` +
        `(${fmt(mean(a.map((r) => r.reqPerSec)))} vs ${fmt(mean(b.map((r) => r.reqPerSec)))} req/s; ` +
        `p99 ${fmt(mean(a.map((r) => r.p99Ms)), 1)} vs ${fmt(mean(b.map((r) => r.p99Ms)), 1)} ms)`,
    );
    const denied = a.reduce((s, r) => s + r.non2xx + r.errors, 0);
    if (denied > 0) throw new Error(`${denied} protected requests failed: the plan was too tight`);

    const exact = await autocannon({
      url: protectedUrl,
      headers: { authorization: `Bearer ${fixture.exact.key}` },
      connections: EXACT_CONNECTIONS,
      amount: EXACT_REQUESTS,
    });
    const codes = exact.statusCodeStats ?? {};
    const ok = codes["200"]?.count ?? 0;
    const limited = codes["429"]?.count ?? 0;
    const other = EXACT_REQUESTS - ok - limited;
    const counted = await decisions(base, "bench-exact");
    const isExact =
      ok === EXACT_LIMIT &&
      limited === EXACT_REQUESTS - EXACT_LIMIT &&
      counted.allowed === ok &&
      counted.denied === limited;
    console.log(
      `\nexactness: limit ${EXACT_LIMIT} reads per hour, ${fmt(EXACT_REQUESTS)} requests over ` +
        `${EXACT_CONNECTIONS} connections -> ${ok} x 200, ${limited} x 429, ${other} other; ` +
        `server counted ${counted.allowed} allowed, ${counted.denied} denied: ` +
        `${isExact ? "EXACT" : "NOT EXACT"}`,
    );
    if (!isExact) process.exitCode = 1;
    if (redis) {
      const health = (await (await fetch(`${base}/api/health`)).json()) as { redis?: string };
      const metrics = await (await fetch(`${base}/api/metrics`)).text();
      const errors =
        /^ratekeeper_store_errors_total\{store="redis"\} (\d+)$/m.exec(metrics)?.[1] ?? "0";
      console.log(`redis: ${health.redis ?? "?"}, store errors during the run: ${errors}`);
      if (health.redis !== "up" || errors !== "0") process.exitCode = 1;
    }
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
