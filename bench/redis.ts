/**
 * The Redis limiter's benchmark: Ratekeeper's RedisLimiter (lib/limiter-redis, a token bucket
 * decided by one Lua script) against rate-limiter-flexible's RateLimiterRedis (a fixed window,
 * also one Lua script), on the same redis-server, in one process and one run.
 * `npm run bench:redis` (tsx).
 *
 * The run starts its own redis-server on a free 127.0.0.1 port (no persistence) and measures
 * (a) round trips: INFO commandstats and MONITOR around a batch of decisions, per path;
 * (b) latency: sequential decisions, one in flight, each timed: p50, p99, mean, on a hot key
 *     (a limit that never denies) and on a drained key (the denied path);
 * (c) throughput: decisions per second with C in flight on one connection, on many keys (round
 *     robin) and on one hot key, with each call's p99;
 * (d) a flood: one customer sending requests over its limit through one app instance (the
 *     decide-and-record path, with the deny cache on, then off), and the Redis commands it cost.
 * Then it prints PASS or MISS for each target (redis-parameters.ts), all measured in this run.
 * Rounds interleave the implementations (A B, B A, ...); the tables report the median round and
 * the ratio Ratekeeper / RateLimiterRedis. The server is stopped however the run ends.
 */
import { machineAtStart } from "./machine-info";
import { otherLoad, sampleMachine } from "./machine-load";
import { flood } from "./redis-flood";
import {
  interference,
  type Latency,
  measureLatency,
  measureThroughput,
  type Throughput,
} from "./redis-measure";
import {
  CONCURRENCY,
  DENIED_KEY,
  HOT_KEY,
  IMPLS,
  type Impl,
  LATENCY_CALLS,
  MANY_KEYS,
  orderOf,
  ROUNDS,
  TARGET_THROUGHPUT_AT,
  THROUGHPUT_CALLS,
  WARMUP_CALLS,
} from "./redis-parameters";
import {
  type LatencyCase,
  MANY_KEYS_LABEL,
  printCost,
  printHeader,
  printInterference,
  printLatency,
  printThroughput,
  printUnexpected,
  type ThroughputCase,
} from "./redis-report";
import { printRoundTrips, runRoundTrips } from "./redis-round-trips";
import { type Bench, type Decide, startBench } from "./redis-setup";
import { floodsExact, printFlood, printTargets } from "./redis-targets";

/** failures lists the decisions that went the wrong way (all hot ones allow, denied ones deny). */
const failures: string[] = [];

function check(what: string, allowed: number, want: number): void {
  if (allowed !== want) failures.push(`${what}: ${allowed} allowed, expected ${want}`);
}

/** MANY_KEY_NAMES are the many-keys workload's keys, made up front. */
const MANY_KEY_NAMES = Array.from(
  { length: MANY_KEYS },
  (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
);
const manyKeyAt = (i: number) => MANY_KEY_NAMES[i % MANY_KEYS] as string;
const hotKeyAt = () => HOT_KEY;

/** A throughput workload: its label and key sequence. */
const THROUGHPUT_KEYS: readonly { label: string; keyAt: (i: number) => string }[] = [
  { label: MANY_KEYS_LABEL, keyAt: manyKeyAt },
  { label: "1 hot key", keyAt: hotKeyAt },
];

const perImpl = <T>(): Record<Impl, T[]> => ({ rk: [], rlf: [] });

/**
 * warmUp runs every workload untimed for each implementation: the scripts get loaded, the code
 * optimised, and every many-keys bucket exists before the timed rounds.
 */
async function warmUp(bench: Bench): Promise<void> {
  for (const impl of IMPLS) {
    const target = bench.targets[impl];
    const hot = await measureLatency(bench.admin, target.hot, HOT_KEY, WARMUP_CALLS);
    check(`${impl} warm-up hot`, hot.allowed, WARMUP_CALLS);
    const denied = await measureLatency(bench.admin, target.denied, DENIED_KEY, WARMUP_CALLS);
    check(`${impl} warm-up denied`, denied.allowed, 0);
    const many = await measureThroughput(bench.admin, target.hot, manyKeyAt, MANY_KEYS, 16);
    check(`${impl} warm-up many keys`, many.allowed, MANY_KEYS);
    for (const concurrency of CONCURRENCY) {
      const t = await measureThroughput(
        bench.admin,
        target.hot,
        hotKeyAt,
        WARMUP_CALLS,
        concurrency,
      );
      check(`${impl} warm-up hot C=${concurrency}`, t.allowed, WARMUP_CALLS);
    }
  }
}

/** runLatency times both paths of both implementations, ROUNDS rounds, interleaved. */
async function runLatency(bench: Bench): Promise<LatencyCase[]> {
  const paths = [
    { name: "hot key (allowed)", key: HOT_KEY, pick: "hot", want: LATENCY_CALLS },
    { name: "denied key", key: DENIED_KEY, pick: "denied", want: 0 },
  ] as const;
  const cases = paths.map((p) => ({ name: p.name, rounds: perImpl<Latency>() }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, path] of paths.entries()) {
      for (const impl of orderOf(round)) {
        const decide: Decide = bench.targets[impl][path.pick];
        const latency = await measureLatency(bench.admin, decide, path.key, LATENCY_CALLS);
        check(`${impl} latency ${path.name} round ${round + 1}`, latency.allowed, path.want);
        cases[i]?.rounds[impl].push(latency);
      }
    }
  }
  return cases;
}

/** runThroughput times both implementations at each concurrency, ROUNDS rounds, interleaved. */
async function runThroughput(bench: Bench): Promise<ThroughputCase[]> {
  const cases: ThroughputCase[] = [];
  for (const keys of THROUGHPUT_KEYS) {
    for (const concurrency of CONCURRENCY) {
      cases.push({ keys: keys.label, concurrency, rounds: perImpl<Throughput>() });
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    let index = 0;
    for (const keys of THROUGHPUT_KEYS) {
      for (const concurrency of CONCURRENCY) {
        const c = cases[index++] as ThroughputCase;
        for (const impl of orderOf(round)) {
          const decide = bench.targets[impl].hot;
          const t = await measureThroughput(
            bench.admin,
            decide,
            keys.keyAt,
            THROUGHPUT_CALLS,
            concurrency,
          );
          check(
            `${impl} ${keys.label} C=${concurrency} round ${round + 1}`,
            t.allowed,
            THROUGHPUT_CALLS,
          );
          c.rounds[impl].push(t);
        }
      }
    }
  }
  return cases;
}

/**
 * runReference times Ratekeeper against RateLimiterRedis with ioredis auto-pipelining on, at
 * the throughput target's concurrencies: how much of the gap is its round trips, which
 * auto-pipelining shares, against its script runs, which it cannot.
 */
async function runReference(bench: Bench): Promise<ThroughputCase[]> {
  const warm = await measureThroughput(bench.admin, bench.rlfPipelined, manyKeyAt, MANY_KEYS, 16);
  check("rlf pipelined warm-up", warm.allowed, MANY_KEYS);
  const cases: ThroughputCase[] = [];
  for (const keys of THROUGHPUT_KEYS) {
    for (const concurrency of TARGET_THROUGHPUT_AT) {
      cases.push({ keys: keys.label, concurrency, rounds: perImpl<Throughput>() });
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    let index = 0;
    for (const keys of THROUGHPUT_KEYS) {
      for (const concurrency of TARGET_THROUGHPUT_AT) {
        const c = cases[index++] as ThroughputCase;
        for (const impl of orderOf(round)) {
          const decide = impl === "rk" ? bench.targets.rk.hot : bench.rlfPipelined;
          const t = await measureThroughput(
            bench.admin,
            decide,
            keys.keyAt,
            THROUGHPUT_CALLS,
            concurrency,
          );
          check(`${impl} reference ${keys.label} C=${concurrency}`, t.allowed, THROUGHPUT_CALLS);
          c.rounds[impl].push(t);
        }
      }
    }
  }
  return cases;
}

async function main(): Promise<void> {
  const machine = machineAtStart();
  const bench = await startBench();
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping redis-server`);
    void bench.close().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    printHeader(machine, bench.redisVersion, bench.server.port);
    await warmUp(bench);
    interference.wallNs = 0;
    interference.waitingNs = 0;
    const sampledAt = process.hrtime.bigint();
    const sampled = sampleMachine();
    const roundTrips = await runRoundTrips(bench);
    const latency = await runLatency(bench);
    const throughput = await runThroughput(bench);
    const reference = await runReference(bench);
    const floods = [
      await flood(bench.server.url, bench.admin, true),
      await flood(bench.server.url, bench.admin, false),
    ];
    const sampledTo = sampleMachine();
    const shared =
      sampled && sampledTo
        ? otherLoad(sampled, sampledTo, Number(process.hrtime.bigint() - sampledAt), [
            process.pid,
            bench.serverPid,
          ])
        : undefined;

    printRoundTrips(roundTrips);
    console.log("");
    printLatency(latency);
    console.log("");
    printThroughput(throughput);
    console.log("");
    printThroughput(reference, "RateLimiterRedis, auto-pipelining on");
    console.log("");
    printCost(latency, throughput);
    console.log("");
    printFlood(floods);
    console.log("");
    printTargets(latency, throughput, floods);
    printUnexpected(failures, bench.late.count);
    printInterference(machine, interference.waitingNs / interference.wallNs, shared);
    if (
      failures.length > 0 ||
      !floodsExact(floods) ||
      roundTrips.some((r) => r.clientCommands !== 1 || r.failed !== 0)
    ) {
      process.exitCode = 1;
    }
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    await bench.close();
  }
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
