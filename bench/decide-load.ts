import autocannon from "autocannon";
import { ShareMeter, type Sharing } from "./machine-share";
import { roundOrder, type Spread, spreadOf } from "./rounds";

/** CONNECTIONS is how many keep-alive connections every run uses: 10. */
export const CONNECTIONS = 10;
/** WARMUP_SECONDS and RUN_SECONDS are the length of a warm-up and of a timed run. */
export const WARMUP_SECONDS = 2;
export const RUN_SECONDS = 4;
/** FIXED_RATE_SECONDS is the length of a run at a fixed rate. */
export const FIXED_RATE_SECONDS = 3;

/** Target is one thing the bench loads: a URL with its method, fields and body. */
export interface Target {
  name: string;
  /** pid is the process that answers (or forwards): its CPU time per request is measured. */
  pid: number;
  /** helpers are processes that serve it (a gateway's upstream): the run's own, not others. */
  helpers?: number[];
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
  /** failed counts the non-2xx answers and the errors. */
  failed: number;
  /** cpuUs is the answering process's CPU time (user + system) per request, in µs. */
  cpuUs: number;
  /** loadGeneratorCpuUs is this process's (autocannon's) CPU time per request, in µs. */
  loadGeneratorCpuUs: number;
  sharing: Sharing;
}

/**
 * load runs autocannon against a target for `seconds` over CONNECTIONS connections, as fast as
 * it answers, or at `rate` requests per second over them all, and measures who used the CPUs.
 */
export async function load(target: Target, seconds: number, rate?: number): Promise<Run> {
  const meter = new ShareMeter(target.pid, target.helpers);
  meter.start();
  const result = await autocannon({
    overallRate: rate,
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  const { sharing, serverMs, loadGeneratorMs } = meter.stop();
  const requests = Math.max(1, result.requests.total);
  return {
    target: target.name,
    reqPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failed: result.non2xx + result.errors,
    cpuUs: (serverMs * 1000) / requests,
    loadGeneratorCpuUs: (loadGeneratorMs * 1000) / requests,
    sharing,
  };
}

/** Rounds are each target's runs, one per round, in round order. */
export type Rounds = Map<string, Run[]>;

/**
 * measure runs every target once per round for `seconds`, the order alternating (as given, then
 * reversed), after a warm-up of each (unless at a fixed `rate`, which follows a full-speed
 * measure of the same targets), and returns each target's runs.
 */
export async function measure(
  targets: Target[],
  rounds: number,
  options: { seconds?: number; rate?: number } = {},
): Promise<Rounds> {
  const seconds = options.seconds ?? (options.rate ? FIXED_RATE_SECONDS : RUN_SECONDS);
  if (options.rate === undefined) {
    for (const target of targets) await load(target, WARMUP_SECONDS);
  }
  const runs: Rounds = new Map(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const target of roundOrder(targets, round)) {
      runs.get(target.name)?.push(await load(target, seconds, options.rate));
    }
  }
  return runs;
}

/** runsOf is a target's runs in a measure (throws if it was not measured: a bench bug). */
export function runsOf(rounds: Rounds, name: string): Run[] {
  const runs = rounds.get(name);
  if (!runs) throw new Error(`no runs of ${name}`);
  return runs;
}

/** field is one figure of a target's runs, round by round. */
export function field(rounds: Rounds, name: string, pick: (run: Run) => number): number[] {
  return runsOf(rounds, name).map(pick);
}

/** fmt formats a number with thousands separators and `digits` decimals. */
export function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** fmtSpread writes a spread as "median (min–max)" with `digits` decimals and a `unit` suffix. */
export function fmtSpread(s: Spread, digits = 0, unit = ""): string {
  return `${fmt(s.median, digits)}${unit} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
}

/**
 * printRounds prints one line per target: the median and range over its rounds of its
 * throughput, p50, p99 and CPU per request, and its failures in all.
 */
export function printRounds(title: string, rounds: Rounds, unit = "req/s"): void {
  console.log(`\n${title}`);
  console.log(
    "| target | throughput, median (range) | p50 ms | p99 ms | CPU µs per request, median (range) | non-2xx + errors |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const [name, runs] of rounds) {
    const of = (pick: (run: Run) => number) => spreadOf(runs.map(pick));
    console.log(
      `| ${name} | ${fmtSpread(
        of((r) => r.reqPerSec),
        0,
        ` ${unit}`,
      )} | ${fmt(of((r) => r.p50Ms).median, 2)} | ` +
        `${fmt(of((r) => r.p99Ms).median, 2)} | ${fmtSpread(
          of((r) => r.cpuUs),
          1,
        )} | ` +
        `${fmt(runs.reduce((s, r) => s + r.failed, 0))} |`,
    );
  }
}

/**
 * sharingLine says what shared the machine over every run of a measure, in cores (medians of the
 * runs): the measured server, the load generator on the same cores (and its CPU per request),
 * other processes (those that used the most named, on average over the runs) and the
 * hypervisor's steal.
 */
export function sharingLine(rounds: Rounds): string {
  const all = [...rounds.values()].flat();
  const cores = (pick: (s: Sharing) => number) =>
    fmt(spreadOf(all.map((r) => pick(r.sharing))).median, 2);
  const byName = new Map<string, number>();
  for (const run of all) {
    for (const p of run.sharing.top) {
      byName.set(p.name, (byName.get(p.name) ?? 0) + p.cores / all.length);
    }
  }
  const top = [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, used]) => `${name} ${fmt(used, 2)}`)
    .join(", ");
  return (
    `shared the machine (cores of ${all[0]?.sharing.cores ?? "?"}, medians of all runs): the measured server ${cores((s) => s.server)}, ` +
    `the load generator ${cores((s) => s.loadGenerator)} (autocannon, in the bench's process, on the same cores: ` +
    `${fmt(spreadOf(all.map((r) => r.loadGeneratorCpuUs)).median, 1)} µs per request), ` +
    `other processes ${cores((s) => s.others)}${top ? ` (most: ${top})` : ""}, stolen by the hypervisor ${cores((s) => s.steal)}`
  );
}
