/**
 * What one decision costs redis-server, in instructions: a count that does not move with the
 * machine's load, unlike CPU time. `npm run bench:redis-instructions` (needs valgrind).
 *
 * It runs redis-server under valgrind's callgrind and, per workload, sends a warm-up, zeroes
 * the counters, sends CALLS script runs (pipelined by PIPELINE, so the network's share is
 * small and alike for all), dumps the counters and divides the instructions redis-server ran by
 * the decisions made: its parsing, the script, the commands the script runs, the replies. Each
 * workload has keys of its own. "return 1" is the fixed cost of any EVALSHA.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { type Limit, limit } from "../lib/limiter";
import { Buckets, DECIDE, encodeBatch } from "../lib/limiter-redis";
import { freePort } from "../test/support/redis-server";
import { fmtInt, table } from "./harness";

/** CALLS is the number of script runs counted per workload, after WARMUP runs. */
const CALLS = 2_000;
const WARMUP = 500;
/** PIPELINE is the number of script runs sent together. */
const PIPELINE = 50;

/** RLF_SCRIPT is rate-limiter-flexible's RateLimiterRedis script (11.4.0), as it sends it. */
const RLF_SCRIPT = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX') \
local consumed = redis.call('incrby', KEYS[1], ARGV[1]) \
local ttl = redis.call('pttl', KEYS[1]) \
if ttl == -1 then \
  redis.call('expire', KEYS[1], ARGV[2]) \
  ttl = 1000 * ARGV[2] \
end \
return {consumed, ttl} \
`;

/** A Workload is one script and the arguments of its i-th run, deciding `decisions` times. */
interface Workload {
  name: string;
  script: string;
  decisions: number;
  args(i: number): (string | Buffer | number)[];
  /** prepare runs once before the warm-up (to drain a bucket, say). */
  prepare?(redis: Redis, sha: string): Promise<void>;
}

/** decideArgs are EVALSHA's arguments after the SHA for `count` decisions of one token each. */
function decideArgs(keys: readonly string[], l: Limit): (string | Buffer | number)[] {
  const batch = keys.map((key) => {
    const buckets = new Buckets();
    buckets.add("ins", l, key);
    return { buckets, n: 1, take: true };
  });
  const encoded = encodeBatch(batch, Number.NaN);
  return [encoded.keys.length, ...encoded.keys, encoded.args];
}

// Never full during the run (a token is 864 ms): the key exists after the first decision.
const slow = limit(100_000, "1d");
// Full again 3.6 µs after a decision: under valgrind the key has expired by the next visit.
const fast = limit(1_000_000_000, "1h");
const single = limit(1, "1d");

const WORKLOADS: Workload[] = [
  { name: "EVALSHA of return 1", script: "return 1", decisions: 1, args: () => [0] },
  {
    name: "RateLimiterRedis, key exists",
    script: RLF_SCRIPT,
    decisions: 1,
    args: () => [1, "rlf:203.0.113.7", 1, 86_400],
  },
  {
    name: "Ratekeeper, key exists (allowed)",
    script: DECIDE,
    decisions: 1,
    args: () => decideArgs(["203.0.113.7"], slow),
  },
  {
    name: "Ratekeeper, new key each time (allowed)",
    script: DECIDE,
    decisions: 1,
    args: (i) => decideArgs([`10.0.0.${i % 100}`], fast),
  },
  {
    name: "Ratekeeper, refused",
    script: DECIDE,
    decisions: 1,
    args: () => decideArgs(["198.51.100.23"], single),
    prepare: async (redis, sha) => {
      await redis.evalsha(sha, ...(decideArgs(["198.51.100.23"], single) as [number]));
    },
  },
  {
    name: "Ratekeeper, 16 decisions per run, keys exist",
    script: DECIDE,
    decisions: 16,
    args: (i) =>
      decideArgs(
        Array.from({ length: 16 }, (_, j) => `192.0.2.${(i * 16 + j) % 160}`),
        slow,
      ),
  },
  {
    name: "Ratekeeper, 64 decisions per run, one key",
    script: DECIDE,
    decisions: 64,
    args: () =>
      decideArgs(
        Array.from({ length: 64 }, () => "203.0.113.99"),
        slow,
      ),
  },
];

/** totalInstructions reads the instruction total of the callgrind dump triggered as `name`. */
function totalInstructions(dir: string, name: string): number {
  for (const file of readdirSync(dir)) {
    const text = readFileSync(path.join(dir, file), "utf8");
    if (!text.includes(`\ndesc: Trigger: dump ${name}\n`)) continue;
    const total = /^(?:summary|totals):\s+(\d+)/m.exec(text);
    if (total) return Number(total[1]);
  }
  throw new Error(`no callgrind dump for ${name}`);
}

async function main(): Promise<void> {
  try {
    execFileSync("valgrind", ["--version"], { stdio: "ignore" });
  } catch {
    console.error("valgrind is not installed: install it (Debian: apt-get install valgrind).");
    process.exitCode = 1;
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-callgrind-"));
  const port = await freePort();
  const server = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      `--callgrind-out-file=${path.join(dir, "redis.out")}`,
      process.env.REDIS_SERVER_PATH ?? "redis-server",
      ...["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    ],
    { stdio: "ignore" },
  );
  const redis = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: null });
  redis.on("error", () => {});
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await redis.connect();
        break;
      } catch (error) {
        if (attempt > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const version = /redis_version:(\S+)/.exec(await redis.info("server"))?.[1];
    console.log(
      `redis-server ${version} under valgrind's callgrind; ${fmtInt(CALLS)} script runs per ` +
        `workload (after ${fmtInt(WARMUP)}), ${PIPELINE} per pipeline; instructions redis-server ` +
        "ran, per decision:",
    );
    const rows: string[][] = [];
    for (const [index, workload] of WORKLOADS.entries()) {
      const dump = `workload-${index}`;
      const sha = createHash("sha1").update(workload.script).digest("hex");
      await redis.script("LOAD", workload.script);
      await workload.prepare?.(redis, sha);
      const run = async (from: number, count: number) => {
        for (let i = from; i < from + count; i += PIPELINE) {
          const pipeline = redis.pipeline();
          for (let j = i; j < i + PIPELINE; j++)
            pipeline.evalsha(sha, ...(workload.args(j) as [number]));
          for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
        }
      };
      await run(0, WARMUP);
      execFileSync("callgrind_control", ["--zero", String(server.pid)], { stdio: "ignore" });
      await run(WARMUP, CALLS);
      execFileSync("callgrind_control", [`--dump=${dump}`, String(server.pid)], {
        stdio: "ignore",
      });
      const perDecision = totalInstructions(dir, dump) / (CALLS * workload.decisions);
      rows.push([workload.name, fmtInt(Math.round(perDecision))]);
    }
    console.log(table(["workload", "instructions per decision"], rows));
  } finally {
    redis.disconnect();
    server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
