/**
 * What Redis's persistence costs and what it keeps: `npm run bench:redis-durability` (tsx).
 *
 * For each setting (no persistence; RDB with Redis's default save points; AOF with
 * `appendfsync everysec`; AOF with `appendfsync always`) the run starts its own redis-server on a
 * free 127.0.0.1 port, its files in a new directory under the OS's temporary one (printed, with
 * its filesystem: fsync costs what that disk makes it cost), and measures:
 * (a) throughput: decisions per second through Ratekeeper's RedisLimiter (the app's script, one
 *     write per decision, concurrent decisions sharing script runs as in the app) with 64 in
 *     flight and with 1, each on keys of its own; after a warm-up round, rounds alternate the
 *     settings (the order rotates), and the table reports the median round of ROUNDS;
 * (b) a crash: decisions with 64 in flight, each taking the only token of its own key (1 per
 *     hour), until KILL_AFTER were acknowledged, then (a turn of the event loop later, the next
 *     decisions sent) `kill -9` of redis-server, a restart on the same files, and a peek of every key: an acknowledged
 *     decision whose token is back was lost. KILL_RUNS runs per setting, the median reported
 *     with the range.
 * Every figure printed is measured in the run. Servers and directories are removed however the
 * run ends. Options: `-- --rounds N`, `-- --kill-runs N`, `-- --dir PATH` (where the servers'
 * files go).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { limit } from "../lib/limiter";
import { RedisLimiter } from "../lib/limiter-redis";
import { type RedisServer, startRedisServer } from "../test/support/redis-server";
import { fmtInt } from "./harness";

/** Setting is one persistence configuration under test. */
interface Setting {
  name: string;
  /** args are redis-server's arguments on top of the test server's (`--save "" --appendonly no`). */
  args: string[];
}

const SETTINGS: readonly Setting[] = [
  { name: "off (no RDB, no AOF)", args: [] },
  { name: "RDB (save 3600 1 300 100 60 10000)", args: ["--save", "3600 1 300 100 60 10000"] },
  {
    name: "AOF, appendfsync everysec",
    args: ["--appendonly", "yes", "--appendfsync", "everysec"],
  },
  { name: "AOF, appendfsync always", args: ["--appendonly", "yes", "--appendfsync", "always"] },
];

/** THROUGHPUT_SETTINGS are the settings the throughput rounds compare (RDB does not write per call). */
const THROUGHPUT_SETTINGS = [0, 2, 3] as const;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`--${name} takes a count`);
  return value;
}

function textOption(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const ROUNDS = option("rounds", 5);
const KILL_RUNS = option("kill-runs", 3);
/** DECISIONS_64 and DECISIONS_1 are a throughput round's decisions with 64 and 1 in flight. */
const DECISIONS_64 = 20_000;
const DECISIONS_1 = 2_000;
/** KILL_AFTER is how many acknowledged decisions a crash run waits for before the kill. */
const KILL_AFTER = 5_000;
const IN_FLIGHT = 64;

/** A Server is one setting's redis-server, its directory and a connection for INFO. */
interface Server {
  setting: Setting;
  dir: string;
  redis: RedisServer;
}

const identity = (key: string) => key;

/** connect opens a connection that never queues or resends: a command sent is sent once. */
async function connect(port: number): Promise<Redis> {
  const client = new Redis({
    host: "127.0.0.1",
    port,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  await client.connect();
  return client;
}

/**
 * run sends `count` decisions with `inFlight` at a time, each on `keyAt(i)`, and returns the
 * indexes acknowledged as allowed. With `after`, it calls `after.reached` once that many were
 * acknowledged, and stops at the first failure (a killed server) once every call in flight has
 * settled; without, a failure rejects.
 */
async function run(
  limiter: RedisLimiter<string>,
  count: number,
  inFlight: number,
  keyAt: (i: number) => string,
  after?: { count: number; reached: () => void },
): Promise<Set<number>> {
  const acknowledged = new Set<number>();
  let next = 0;
  let failed = false;
  let fired = false;
  const worker = async () => {
    while (!failed && next < count) {
      const i = next++;
      try {
        if (await limiter.allow(keyAt(i))) acknowledged.add(i);
        else throw new Error(`decision ${i} was refused: every key must have its token`);
      } catch (error) {
        if (!after) throw error;
        failed = true;
      }
      if (after && !fired && acknowledged.size >= after.count) {
        fired = true;
        after.reached();
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return acknowledged;
}

/** throughput times `count` decisions with `inFlight` at a time on fresh keys: decisions/s. */
async function throughput(
  server: Server,
  round: number,
  count: number,
  inFlight: number,
): Promise<number> {
  const client = await connect(server.redis.port);
  try {
    const limiter = new RedisLimiter<string>(client, identity, limit(1_000_000, "1h"), {
      prefix: `t${round}c${inFlight}`,
    });
    await run(limiter, 64, Math.min(inFlight, 64), (i) => `warm:${i}`);
    const started = process.hrtime.bigint();
    await run(limiter, count, inFlight, (i) => `k:${i}`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return count / seconds;
  } finally {
    client.disconnect();
  }
}

/** Crash is one crash run: decisions acknowledged before the kill, and what Redis kept of them. */
interface Crash {
  acknowledged: number;
  lost: number;
  /** keptUnacknowledged are decisions Redis ran whose reply the kill cut off. */
  keptUnacknowledged: number;
}

/** peekUntilLoaded peeks a key, retrying while the restarted server still loads its files. */
async function peekUntilLoaded(limiter: RedisLimiter<string>, key: string): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await limiter.peek(key);
    } catch (error) {
      if (attempt > 500 || !String(error).includes("LOADING")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** crash runs decisions until KILL_AFTER are acknowledged, kills -9, restarts, and counts. */
async function crash(server: Server, index: number): Promise<Crash> {
  const prefix = `crash${index}`;
  const oneAnHour = limit(1, "1h");
  const client = await connect(server.redis.port);
  const limiter = new RedisLimiter<string>(client, identity, oneAnHour, { prefix });
  let killed: Promise<void> | undefined;
  const total = KILL_AFTER * 4;
  const acknowledged = await run(limiter, total, IN_FLIGHT, (i) => `c:${i}`, {
    count: KILL_AFTER,
    // After the acknowledgement's turn of the event loop: the next decisions are on their way.
    reached: () => {
      setImmediate(() => {
        killed = server.redis.stop();
      });
    },
  });
  client.disconnect();
  await killed;
  await server.redis.start();
  const after = await connect(server.redis.port);
  try {
    const peeker = new RedisLimiter<string>(after, identity, oneAnHour, { prefix });
    let lost = 0;
    let keptUnacknowledged = 0;
    // Every key the run may have sent: a key whose token is gone was kept.
    for (let i = 0; i < total; i++) {
      const full = await peekUntilLoaded(peeker, `c:${i}`);
      if (acknowledged.has(i) && full) lost += 1;
      if (!acknowledged.has(i) && !full) keptUnacknowledged += 1;
    }
    return { acknowledged: acknowledged.size, lost, keptUnacknowledged };
  } finally {
    after.disconnect();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** filesystemOf names the filesystem holding `dir` (df -T), for the header. */
function filesystemOf(dir: string): string {
  const df = spawnSync("df", ["-T", dir], { encoding: "utf8" });
  const line = df.stdout?.trim().split("\n")[1]?.split(/\s+/);
  return line ? `${line[1]} on ${line[0]}` : "unknown filesystem";
}

async function main(): Promise<void> {
  const base = textOption("dir") ?? os.tmpdir();
  const servers: Server[] = [];
  const cleanup = async () => {
    for (const server of servers.splice(0)) {
      await server.redis.close();
      rmSync(server.dir, { recursive: true, force: true });
    }
  };
  process.once("SIGINT", () => {
    void cleanup().then(() => process.exit(130));
  });
  try {
    for (const setting of SETTINGS) {
      const dir = mkdtempSync(path.join(base, "ratekeeper-durability-"));
      servers.push({
        setting,
        dir,
        redis: await startRedisServer(["--dir", dir, ...setting.args]),
      });
    }
    const version = spawnSync("redis-server", ["--version"], { encoding: "utf8" }).stdout.trim();
    const cpus = os.cpus();
    console.log("Ratekeeper: Redis durability, what it costs and what a kill -9 keeps");
    console.log(
      `machine: ${os.type()} ${os.release()}, ${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ` +
        `load ${os.loadavg()[0]?.toFixed(2)} at start, Node ${process.version}`,
    );
    console.log(`redis: ${version}`);
    console.log(`files: ${base} (${filesystemOf(base)})`);
    for (const server of servers) {
      const admin = await connect(server.redis.port);
      const config = await admin.config("GET", "save", "appendonly", "appendfsync");
      admin.disconnect();
      const values = config as string[];
      const pairs: string[] = [];
      for (let i = 0; i + 1 < values.length; i += 2) pairs.push(`${values[i]} "${values[i + 1]}"`);
      console.log(`  ${server.setting.name}: ${pairs.join(", ")}`);
    }
    console.log(
      `method: a warm-up round, then ${ROUNDS} rounds alternating the settings (order rotated), median; ` +
        `${fmtInt(DECISIONS_64)} decisions with ${IN_FLIGHT} in flight, ${fmtInt(DECISIONS_1)} with 1; ` +
        `${KILL_RUNS} crash runs per setting, kill -9 after ${fmtInt(KILL_AFTER)} acknowledged`,
    );
    console.log("");

    const at64 = new Map<number, number[]>();
    const at1 = new Map<number, number[]>();
    // A warm-up round on every setting (compiles the limiter's path), not counted.
    for (const s of THROUGHPUT_SETTINGS) {
      await throughput(servers[s] as Server, -1, DECISIONS_64, IN_FLIGHT);
      await throughput(servers[s] as Server, -1, DECISIONS_1, 1);
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = THROUGHPUT_SETTINGS.map(
        (_, i) => THROUGHPUT_SETTINGS[(i + round) % THROUGHPUT_SETTINGS.length] as number,
      );
      for (const s of order) {
        const server = servers[s] as Server;
        const many = await throughput(server, round, DECISIONS_64, IN_FLIGHT);
        const one = await throughput(server, round, DECISIONS_1, 1);
        at64.set(s, [...(at64.get(s) ?? []), many]);
        at1.set(s, [...(at1.get(s) ?? []), one]);
      }
    }
    const off64 = median(at64.get(0) ?? []);
    const off1 = median(at1.get(0) ?? []);
    console.log("Throughput (decisions per second, median round; ratio to no persistence)");
    console.log("| setting | 64 in flight | ratio | 1 in flight | ratio |");
    console.log("| --- | ---: | ---: | ---: | ---: |");
    for (const s of THROUGHPUT_SETTINGS) {
      const many = median(at64.get(s) ?? []);
      const one = median(at1.get(s) ?? []);
      console.log(
        `| ${servers[s]?.setting.name} | ${fmtInt(Math.round(many))} | ${(many / off64).toFixed(2)}x | ` +
          `${fmtInt(Math.round(one))} | ${(one / off1).toFixed(2)}x |`,
      );
    }
    console.log("");

    console.log(
      `A kill -9 of redis-server under load (${IN_FLIGHT} in flight), restarted on its files: median of ${KILL_RUNS} (min to max)`,
    );
    console.log(
      "| setting | acknowledged before the kill | lost after restart | ran, reply cut off |",
    );
    console.log("| --- | ---: | ---: | ---: |");
    for (const server of servers) {
      const runs: Crash[] = [];
      for (let r = 0; r < KILL_RUNS; r++) runs.push(await crash(server, r));
      const cell = (pick: (c: Crash) => number) => {
        const values = runs.map(pick);
        const lo = Math.min(...values);
        const hi = Math.max(...values);
        return `${fmtInt(median(values))}${lo === hi ? "" : ` (${fmtInt(lo)} to ${fmtInt(hi)})`}`;
      };
      console.log(
        `| ${server.setting.name} | ${cell((c) => c.acknowledged)} | ${cell((c) => c.lost)} | ${cell((c) => c.keptUnacknowledged)} |`,
      );
    }
  } finally {
    await cleanup();
  }
}

await main();
