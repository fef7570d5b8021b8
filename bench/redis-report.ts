import { createRequire } from "node:module";
import os from "node:os";
import { fmtInt, fmtRatio, median, table } from "./harness";
import type { MachineAtStart } from "./machine-info";
import type { OtherLoad } from "./machine-load";
import type { Cost, Latency, Throughput } from "./redis-measure";
import {
  CONCURRENCY,
  DENIED_COUNT,
  HOT_COUNT,
  IMPL_NAMES,
  IMPLS,
  type Impl,
  LATENCY_CALLS,
  MANY_KEYS,
  PERIOD_S,
  ROUNDS,
  THROUGHPUT_CALLS,
  TIMEOUT_MS,
  WARMUP_CALLS,
} from "./redis-parameters";

/** packageVersion is an installed package's version, from its package.json. */
function packageVersion(name: string): string {
  try {
    const require = createRequire(import.meta.url);
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/** printHeader prints the title, the machine, the versions, the method and the setup. */
export function printHeader({ cpus }: MachineAtStart, redisVersion: string, port: number): void {
  console.log("Ratekeeper Redis limiter benchmark");
  console.log(
    `machine: ${os.type()} ${os.release()} ${os.arch()}, ${cpus[0]?.model ?? "unknown CPU"}, ` +
      `${cpus.length} cores, Node ${process.version} (V8 ${process.versions.v8})`,
  );
  console.log(
    `redis: redis-server ${redisVersion} on 127.0.0.1:${port} (started by the run, no persistence); ` +
      `ioredis ${packageVersion("ioredis")} (auto-pipelining off on both connections), ` +
      `rate-limiter-flexible ${packageVersion("rate-limiter-flexible")}; ` +
      "one connection per implementation",
  );
  console.log(
    `method: ${fmtInt(WARMUP_CALLS)} warm-up decisions per implementation and workload, then ` +
      `${ROUNDS} timed rounds interleaved A B, B A, ...; the tables show the median round ` +
      "and the range of the per-round ratios. " +
      `Latency: ${fmtInt(LATENCY_CALLS)} sequential decisions per round (one in flight), each ` +
      `timed with process.hrtime.bigint(). Throughput: ${fmtInt(THROUGHPUT_CALLS)} decisions per ` +
      `round with C = ${CONCURRENCY.join(", ")} in flight`,
  );
  console.log(
    `limits: hot ${fmtInt(HOT_COUNT)} per ${PERIOD_S} s (never denies here), denied ` +
      `${DENIED_COUNT} per ${PERIOD_S} s (drained first). Ratekeeper: RedisLimiter with ` +
      `limit(count, "${PERIOD_S}s"), allow(key), a token bucket (one EVALSHA per decision, ` +
      "shared by the decisions made on the connection in the same tick). " +
      `RateLimiterRedis: points = count, duration = ${PERIOD_S}, consume(key), a fixed window ` +
      "(one EVALSHA via ioredis defineCommand; in-memory block off, so denials reach Redis too). " +
      "The algorithms differ: the figures compare the cost of a decision, not its semantics.",
  );
  console.log("");
}

/** us formats ns as microseconds with one decimal: "12.3 µs". */
export const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
const perSec = (value: number) => `${fmtInt(Math.round(value))}/s`;

/** medianOf is the median over rounds of one figure. */
export function medianOf<T>(rounds: readonly T[], figure: (round: T) => number): number {
  return median(rounds.map(figure));
}

/**
 * roundRatios is the range (min-max) of the per-round ratios Ratekeeper / RateLimiterRedis of a
 * figure: each round runs the two back to back, so its ratio is little moved by slow drift.
 */
function roundRatios<T>(rk: readonly T[], rlf: readonly T[], figure: (round: T) => number): string {
  const ratios = rk.map((round, i) => figure(round) / figure(rlf[i] as T));
  return `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`;
}

/** LatencyCase is a latency workload's rounds per implementation. */
export interface LatencyCase {
  name: string;
  rounds: Record<Impl, Latency[]>;
}

/** printLatency prints the latency table: medians over rounds, and ours / theirs. */
export function printLatency(cases: readonly LatencyCase[]): void {
  console.log(
    `Latency per decision, sequential (one in flight), median round of ${ROUNDS}; ratio = ` +
      "Ratekeeper / RateLimiterRedis (below 1: Ratekeeper is faster):",
  );
  const rows: string[][] = [];
  for (const c of cases) {
    const figures = (impl: Impl) => {
      const rounds = c.rounds[impl];
      return {
        p50: medianOf(rounds, (r) => r.p50),
        p99: medianOf(rounds, (r) => r.p99),
        mean: medianOf(rounds, (r) => r.mean),
      };
    };
    const rk = figures("rk");
    const rlf = figures("rlf");
    for (const impl of IMPLS) {
      const f = impl === "rk" ? rk : rlf;
      rows.push([
        `${c.name}, ${IMPL_NAMES[impl]}`,
        us(f.p50),
        us(f.p99),
        us(f.mean),
        "",
        "",
        "",
        "",
      ]);
    }
    rows.push([
      `${c.name}, ratio`,
      "",
      "",
      "",
      fmtRatio(rk.p50 / rlf.p50),
      fmtRatio(rk.p99 / rlf.p99),
      fmtRatio(rk.mean / rlf.mean),
      roundRatios(c.rounds.rk, c.rounds.rlf, (r) => r.p50),
    ]);
  }
  console.log(
    table(
      [
        "workload, implementation",
        "p50",
        "p99",
        "mean",
        "p50 ratio",
        "p99 ratio",
        "mean ratio",
        "p50 ratio per round",
      ],
      rows,
    ),
  );
}

/** ThroughputCase is a throughput workload at one concurrency: its rounds per implementation. */
export interface ThroughputCase {
  keys: string;
  concurrency: number;
  rounds: Record<Impl, Throughput[]>;
}

/**
 * printThroughput prints the throughput table: median decisions per second and ours / theirs,
 * then each call's p99 (from its call to its result) and ours / theirs. `theirs` names the
 * other implementation when it is not RateLimiterRedis as set up for every workload.
 */
export function printThroughput(
  cases: readonly ThroughputCase[],
  theirs: string = IMPL_NAMES.rlf,
): void {
  console.log(
    `Throughput against ${theirs}, decisions per second with C in flight, median round of ` +
      `${ROUNDS}; ratio = Ratekeeper / theirs (above 1: Ratekeeper is faster); p99 of each ` +
      "call, from the call to its result (ratio below 1: Ratekeeper is faster):",
  );
  const rows = cases.map((c) => {
    const rk = medianOf(c.rounds.rk, (r) => r.perSecond);
    const rlf = medianOf(c.rounds.rlf, (r) => r.perSecond);
    const rkP99 = medianOf(c.rounds.rk, (r) => r.p99);
    const rlfP99 = medianOf(c.rounds.rlf, (r) => r.p99);
    return [
      c.keys,
      String(c.concurrency),
      perSec(rk),
      perSec(rlf),
      fmtRatio(rk / rlf),
      roundRatios(c.rounds.rk, c.rounds.rlf, (r) => r.perSecond),
      us(rkP99),
      us(rlfP99),
      fmtRatio(rkP99 / rlfP99),
    ];
  });
  console.log(
    table(
      [
        "keys",
        "C",
        IMPL_NAMES.rk,
        theirs,
        "ratio",
        "ratio per round",
        "p99 ours",
        "p99 theirs",
        "p99 ratio",
      ],
      rows,
    ),
  );
}

/** printCost prints the CPU per decision, client and server, of every workload's median round. */
export function printCost(
  latency: readonly LatencyCase[],
  throughput: readonly ThroughputCase[],
): void {
  console.log(
    "CPU per decision, median round: this process (Node, ioredis, the limiter) + redis-server " +
      "(INFO cpu); it leaves out the time other processes held the CPUs. Ratios = Ratekeeper / " +
      "RateLimiterRedis of the client's, redis-server's and the total CPU (below 1: Ratekeeper " +
      "costs less), of the median rounds and their range round by round:",
  );
  const workloads: { name: string; rounds: Record<Impl, readonly Cost[]> }[] = [
    ...latency.map((c) => ({ name: `sequential, ${c.name}`, rounds: c.rounds })),
    ...throughput.map((c) => ({ name: `C=${c.concurrency}, ${c.keys}`, rounds: c.rounds })),
  ];
  const rows = workloads.map(({ name, rounds }) => {
    const figures = (impl: Impl) => {
      const client = medianOf(rounds[impl], (r) => r.clientCpu);
      const server = medianOf(rounds[impl], (r) => r.serverCpu);
      const total = medianOf(rounds[impl], (r) => r.clientCpu + r.serverCpu);
      return { client, server, total };
    };
    const rk = figures("rk");
    const rlf = figures("rlf");
    return [
      name,
      `${us(rk.client)} + ${us(rk.server)} = ${us(rk.total)}`,
      `${us(rlf.client)} + ${us(rlf.server)} = ${us(rlf.total)}`,
      fmtRatio(rk.client / rlf.client),
      roundRatios(rounds.rk, rounds.rlf, (r) => r.clientCpu),
      fmtRatio(rk.server / rlf.server),
      roundRatios(rounds.rk, rounds.rlf, (r) => r.serverCpu),
      fmtRatio(rk.total / rlf.total),
      roundRatios(rounds.rk, rounds.rlf, (r) => r.clientCpu + r.serverCpu),
    ];
  });
  const heading = (impl: Impl) => `${IMPL_NAMES[impl]}: client + server = total`;
  console.log(
    table(
      [
        "workload",
        heading("rk"),
        heading("rlf"),
        "client ratio",
        "per round",
        "server ratio",
        "per round",
        "total ratio",
        "per round",
      ],
      rows,
    ),
  );
}

/**
 * printUnexpected prints the decisions that went the wrong way, if any (figures then suspect),
 * and how many of Ratekeeper's were late (a RedisDeadlineError: not run within the deadline).
 */
export function printUnexpected(failures: readonly string[], late: number): void {
  if (failures.length === 0 && late === 0) return;
  console.log("");
  console.log(`Unexpected decisions (the figures above are suspect): ${failures.length}`);
  for (const failure of failures) console.log(`  ${failure}`);
  if (late > 0) {
    console.log(
      `  of which Ratekeeper's late: ${late} (RedisDeadlineError: Redis did not run them within ` +
        `the app's ${TIMEOUT_MS} ms deadline, so they took nothing; the machine stalled)`,
    );
  }
}

/** MANY_KEYS_LABEL is the many-keys workload's heading. */
export const MANY_KEYS_LABEL = `${fmtInt(MANY_KEYS)} keys, round robin`;

/**
 * WAITED_MUCH is the share of the timed wall time waiting for a CPU past which the run says the
 * wall-time figures moved with other work: the run itself (this process and redis-server) fits
 * on the machine's two cores, so waiting beyond this was mostly for other processes.
 */
const WAITED_MUCH = 0.1;

/**
 * printInterference prints what shared the machine: the share of the timed wall time the main
 * thread waited for a CPU (`waited`, 0 to 1), the CPU other processes used during the measured
 * part (`shared`, when /proc could tell) and which, the hypervisor's steal, the load averages,
 * which figures to trust when the run competed for the CPUs, and the total time.
 */
export function printInterference(
  { started, loadAtStart, cpus }: MachineAtStart,
  waited: number,
  shared: OtherLoad | undefined,
): void {
  const load = os.loadavg()[0] ?? 0;
  console.log("");
  console.log(
    `interference: the main thread waited for a CPU ${(waited * 100).toFixed(1)}% of the timed ` +
      `wall time (redis-server shares the machine); 1-min load average ` +
      `${loadAtStart.toFixed(2)} at the start, ${load.toFixed(2)} at the end, on ${cpus.length} cores`,
  );
  if (shared) {
    const top = shared.top.map((p) => `${p.name} (pid ${p.pid}) ${p.cores.toFixed(2)}`).join(", ");
    console.log(
      `shared with: other processes used ${shared.others.toFixed(2)} of the ${cpus.length} ` +
        `cores on average while the rounds ran, the hypervisor took ${shared.steal.toFixed(2)} ` +
        `more (steal); the most: ${top || "none"}`,
    );
  }
  if (waited > WAITED_MUCH || (shared !== undefined && shared.others + shared.steal > 0.25)) {
    console.log(
      "other work competed with this run for the CPUs: wall-time figures (throughput, latency, " +
        "p99) moved with it, round to round; the CPU per decision (its table; each process's " +
        "own CPU time, which leaves out the time others held the CPUs) is the steadier " +
        "comparison, and the ratios within a round steadier than the absolute figures",
    );
  }
  console.log(`total time: ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);
}
