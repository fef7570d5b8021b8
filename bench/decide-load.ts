import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/** CONNECTIONS is how many keep-alive connections every run uses: 10. */
export const CONNECTIONS = 10;
/** WARMUP_SECONDS and RUN_SECONDS are the length of a warm-up and of a timed run. */
export const WARMUP_SECONDS = 2;
export const RUN_SECONDS = 4;

/** Target is one thing the bench loads: a URL with its method, fields and body. */
export interface Target {
  name: string;
  /** pid is the process that answers (or forwards): its CPU time per request is measured. */
  pid: number;
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** Run is one timed autocannon run against a target. */
export interface Run {
  target: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** cpuUs is the answering process's CPU time (user + system) per request, in µs. */
  cpuUs: number;
}

const TICK_MS = 10;

/**
 * cpuMs reads a process's CPU time (user + system, ms) from /proc, in 10 ms ticks: over a run of
 * thousands of requests, precise enough. It is what a request costs whatever else the machine
 * runs, where throughput also measures how much of a CPU the process got.
 */
function cpuMs(pid: number): number {
  try {
    const fields = (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return Number.NaN;
  }
}

/**
 * load runs autocannon against a target for `seconds` over CONNECTIONS connections, as fast as
 * it answers, or at `rate` requests per second over them all.
 */
export async function load(target: Target, seconds: number, rate?: number): Promise<Run> {
  const cpuBefore = cpuMs(target.pid);
  const result = await autocannon({
    overallRate: rate,
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  return {
    target: target.name,
    reqPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuUs: ((cpuMs(target.pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total),
  };
}

/** Summary is a target's mean over its runs. */
export interface Summary {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
  cpuUs: number;
}

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

/**
 * compare warms every target up, then runs them in a mirrored order (A B C C B A, twice), so a
 * steady drift in the machine's speed weighs on all alike, and returns each target's mean.
 */
export async function compare(targets: Target[]): Promise<Map<string, Summary>> {
  for (const target of targets) await load(target, WARMUP_SECONDS);
  const order = [...targets, ...[...targets].reverse()];
  const runs: Run[] = [];
  for (const target of [...order, ...order]) runs.push(await load(target, RUN_SECONDS));
  const summaries = new Map<string, Summary>();
  for (const target of targets) {
    const mine = runs.filter((r) => r.target === target.name);
    summaries.set(target.name, {
      reqPerSec: mean(mine.map((r) => r.reqPerSec)),
      p50Ms: mean(mine.map((r) => r.p50Ms)),
      p99Ms: mean(mine.map((r) => r.p99Ms)),
      failed: mine.reduce((s, r) => s + r.non2xx + r.errors, 0),
      cpuUs: mean(mine.map((r) => r.cpuUs)),
    });
  }
  return summaries;
}

/** FIXED_RATE_SECONDS is the length of a run at a fixed rate. */
export const FIXED_RATE_SECONDS = 4;

/**
 * cpuAtRate loads each target at the same fixed `rate` (requests per second) and returns its CPU
 * time per request (µs). At full speed a slower server also pays more for waking its client
 * between answers, and on a shared machine for the CPU it waits for; at one rate for all, the
 * CPU per request compares the work itself.
 */
export async function cpuAtRate(targets: Target[], rate: number): Promise<Map<string, number>> {
  const cpu = new Map<string, number>();
  for (const target of [...targets, ...[...targets].reverse()]) {
    const run = await load(target, FIXED_RATE_SECONDS, rate);
    cpu.set(target.name, (cpu.get(target.name) ?? 0) + run.cpuUs / 2);
  }
  return cpu;
}

/** fmt formats a number with thousands separators and `digits` decimals. */
export function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** printSummaries prints one line per target: req/s, p50, p99, failures. */
export function printSummaries(title: string, summaries: Map<string, Summary>, unit = "req/s") {
  console.log(`\n${title}`);
  console.log("| target | throughput | p50 ms | p99 ms | CPU µs per request | non-2xx + errors |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const [name, s] of summaries) {
    console.log(
      `| ${name} | ${fmt(s.reqPerSec)} ${unit} | ${fmt(s.p50Ms, 2)} | ${fmt(s.p99Ms, 2)} | ` +
        `${fmt(s.cpuUs, 1)} | ${fmt(s.failed)} |`,
    );
  }
}
