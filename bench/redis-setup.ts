import { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { limit } from "../lib/limiter";
import { RedisDeadlineError, RedisLimiter } from "../lib/limiter-redis";
import { type RedisServer, startRedisServer } from "../test/support/redis-server";
import {
  DENIED_COUNT,
  DENIED_KEY,
  HOT_COUNT,
  type Impl,
  PERIOD_S,
  TIMEOUT_MS,
} from "./redis-parameters";

/** Decide is one decision on a key: true when allowed, false when denied. */
export type Decide = (key: string) => Promise<boolean>;

/** A Target is one implementation under test: its decisions on the hot and the denied limit. */
export interface Target {
  impl: Impl;
  /** client is the connection this implementation's decisions (and only they) go through. */
  client: Redis;
  hot: Decide;
  denied: Decide;
}

/** A Bench is the run's Redis server, its connections and both implementations on it. */
export interface Bench {
  server: RedisServer;
  /** redisVersion is the server's version, from INFO server. */
  redisVersion: string;
  /** serverPid is the redis-server's process id, from INFO server. */
  serverPid: number;
  /** admin is a connection for INFO and MONITOR, apart from the measured ones. */
  admin: Redis;
  targets: Record<Impl, Target>;
  /**
   * rlfPipelined is RateLimiterRedis on a connection of its own with ioredis auto-pipelining
   * on (its hot limit only, a reference for the throughput rounds).
   */
  rlfPipelined: Decide;
  /**
   * late counts Ratekeeper's decisions that failed with a RedisDeadlineError (Redis did not run
   * them within the app's deadline: the machine stalled); each counts as not allowed.
   */
  late: { count: number };
  /** openClient opens another connection to the server (auto-pipelining as asked), closed by `close`. */
  openClient(autoPipelining?: boolean): Promise<Redis>;
  /** close quits every connection and stops the server; safe to call more than once. */
  close(): Promise<void>;
}

/**
 * The client options of every connection: loopback only, auto-pipelining off (each command is
 * written as it is issued; concurrent decisions share the connection as ioredis queues them).
 */
function clientOptions(port: number) {
  return {
    host: "127.0.0.1",
    port,
    enableAutoPipelining: false,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  } as const;
}

const allowed = () => true;

/**
 * orLate answers a Ratekeeper decision, a RedisDeadlineError counted in `late` and answered as
 * not allowed (the run then lists the decisions that went the wrong way) rather than ending it.
 */
function orLate(decision: Promise<boolean>, late: { count: number }): Promise<boolean> {
  return decision.catch((error: unknown) => {
    if (!(error instanceof RedisDeadlineError)) throw error;
    late.count++;
    return false;
  });
}

/** deniedByRlf tells a RateLimiterRedis denial (a RateLimiterRes) from a real error, as callers do. */
function deniedByRlf(reason: unknown): boolean {
  if (reason instanceof RateLimiterRes) return false;
  throw reason;
}

/**
 * startBench starts redis-server on a free loopback port, opens one connection per
 * implementation plus an admin one, and builds both implementations with equivalent limits:
 * HOT_COUNT and DENIED_COUNT per PERIOD_S seconds.
 */
export async function startBench(): Promise<Bench> {
  const server = await startRedisServer();
  const clients: Redis[] = [];
  let serverPid = 0;
  const killServer = () => {
    // A last resort on a sudden exit: the server is our child, known by the pid it reported.
    if (serverPid > 0) {
      try {
        process.kill(serverPid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  };
  process.once("exit", killServer);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const client of clients.splice(0)) {
      try {
        await Promise.race([
          client.quit(),
          new Promise((resolve) => setTimeout(resolve, 1_000).unref()),
        ]);
      } catch {
        // the connection is gone already
      }
      client.disconnect();
    }
    await server.close();
    process.removeListener("exit", killServer);
  };
  const openClient = async (autoPipelining = false) => {
    const client = new Redis({
      ...clientOptions(server.port),
      enableAutoPipelining: autoPipelining,
    });
    clients.push(client);
    await client.connect();
    await client.ping();
    return client;
  };
  try {
    const admin = await openClient();
    const info = await admin.info("server");
    serverPid = Number(/process_id:(\d+)/.exec(info)?.[1] ?? 0);
    const redisVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? "unknown";

    const rkClient = await openClient();
    const identity = (key: string) => key;
    // With the app's deadline (REDIS_TIMEOUT_MS's default): what a decision costs in production.
    const rkHot = new RedisLimiter<string>(rkClient, identity, limit(HOT_COUNT, `${PERIOD_S}s`), {
      prefix: "rk",
      timeoutMs: TIMEOUT_MS,
    });
    const rkDenied = new RedisLimiter<string>(
      rkClient,
      identity,
      limit(DENIED_COUNT, `${PERIOD_S}s`),
      { prefix: "rk", timeoutMs: TIMEOUT_MS },
    );

    const rlfClient = await openClient();
    // inMemoryBlockOnConsumed stays off (its default): every denial then goes to Redis too.
    const rlfHot = new RateLimiterRedis({
      storeClient: rlfClient,
      keyPrefix: "rlf-hot",
      points: HOT_COUNT,
      duration: PERIOD_S,
    });
    const rlfDenied = new RateLimiterRedis({
      storeClient: rlfClient,
      keyPrefix: "rlf-denied",
      points: DENIED_COUNT,
      duration: PERIOD_S,
    });

    const late = { count: 0 };
    const targets: Record<Impl, Target> = {
      rk: {
        impl: "rk",
        client: rkClient,
        hot: (key) => orLate(rkHot.allow(key), late),
        denied: (key) => orLate(rkDenied.allow(key), late),
      },
      rlf: {
        impl: "rlf",
        client: rlfClient,
        hot: (key) => rlfHot.consume(key).then(allowed, deniedByRlf),
        denied: (key) => rlfDenied.consume(key).then(allowed, deniedByRlf),
      },
    };
    await drainDeniedKey(targets);
    const pipelinedHot = new RateLimiterRedis({
      storeClient: await openClient(true),
      keyPrefix: "rlf-pipelined",
      points: HOT_COUNT,
      duration: PERIOD_S,
    });
    const rlfPipelined: Decide = (key) => pipelinedHot.consume(key).then(allowed, deniedByRlf);
    return {
      server,
      redisVersion,
      serverPid,
      admin,
      targets,
      rlfPipelined,
      late,
      openClient,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** drainDeniedKey takes the denied limit's DENIED_COUNT tokens, then checks both now deny. */
async function drainDeniedKey(targets: Record<Impl, Target>): Promise<void> {
  for (const target of Object.values(targets)) {
    for (let i = 0; i < DENIED_COUNT; i++) {
      if (!(await target.denied(DENIED_KEY))) {
        throw new Error(`${target.impl}: denied key ran dry after ${i} of ${DENIED_COUNT} calls`);
      }
    }
    if (await target.denied(DENIED_KEY)) {
      throw new Error(`${target.impl}: denied key did not drain`);
    }
  }
}
