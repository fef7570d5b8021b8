/**
 * The data plane's benchmark: `npm run bench:decide` (tsx). It builds the app if needed, starts
 * the server entry (dist/server.mjs) on 127.0.0.1 with a temporary database and the gateway in
 * front of an upstream, and loads it with autocannon over 10 keep-alive connections, each target
 * in a process of its own (bench/decide-floors.ts):
 *
 * 1. single decisions, POST /api/v1/decisions, against the floor (a bare node:http server that
 *    reads the body and answers the same JSON without deciding; target >= 0.5x its req/s) and
 *    against the same decision through a Next route handler (POST /api/bench/decisions, 404
 *    unless RATEKEEPER_BENCH=1; target >= 10x);
 * 2. batches of 100 decisions, POST /api/v1/decisions/batch (target >= 100,000 decisions/s);
 * 3. the gateway, GET /gw/items, against the upstream called directly and a bare node:http
 *    proxy (the floor; target >= 0.8x its req/s, and p99 added over direct under 5 ms).
 *
 * With `--redis` (`npm run bench:decide -- --redis`) the server keeps its buckets in a
 * redis-server the bench starts, and the bench also counts the commands the server sends Redis
 * per decision (INFO commandstats; target: exactly one).
 *
 * With `--edge` (`npm run bench:decide -- --edge`) the buckets are in Redis too, and what is
 * measured is an edge (RATEKEEPER_ROLE=edge, in a directory of its own, no database) whose
 * policy comes from the control plane started beside it; the Next route compared against is the
 * control plane's.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type RedisServer, startRedisServer } from "../test/support/redis-server";
import {
  CONNECTIONS,
  compare,
  cpuAtRate,
  fmt,
  RUN_SECONDS,
  type Summary,
  type Target,
} from "./decide-load";
import { countRoundTrips, type RoundTrips } from "./decide-redis";
import { GATEWAY_RATE, report, SINGLE_RATE } from "./decide-report";
import { type Fixture, type Floor, seed, startFloor } from "./decide-setup";
import { buildIfMissing, type NextServer, startNext } from "./next-server";

async function expectOk(target: Target, describe: (body: string) => string | undefined) {
  const res = await fetch(target.url, {
    method: target.method,
    headers: target.headers,
    body: target.body,
  });
  const body = await res.text();
  const problem = res.status === 200 ? describe(body) : `status ${res.status}`;
  if (problem) throw new Error(`${target.name} is not ready to measure: ${problem}: ${body}`);
  return body;
}

const allowed = (body: string) =>
  (JSON.parse(body) as { allowed?: boolean }).allowed === true ? undefined : "not allowed";

async function singleDecisions(
  server: NextServer,
  control: NextServer,
  fixture: Fixture,
  root: string,
  dir: string,
) {
  const base = server.url;
  const headers = { authorization: `Bearer ${fixture.token}`, "content-type": "application/json" };
  const body = JSON.stringify({ key: fixture.single, operation: "read" });
  const plane: Target = {
    name: "data plane",
    pid: server.pid,
    url: `${base}/api/v1/decisions`,
    method: "POST",
    headers,
    body,
  };
  const next: Target = {
    ...plane,
    name: "Next route",
    pid: control.pid,
    url: `${control.url}/api/bench/decisions`,
  };
  // The floor answers a real decision's answer, byte for byte.
  const answer = await expectOk(plane, allowed);
  await expectOk(next, allowed);
  const file = path.join(dir, "decision.json");
  writeFileSync(file, answer);
  const floorProcess = await startFloor(root, "decision-floor", file);
  try {
    const floor: Target = {
      ...plane,
      name: "floor (bare node:http)",
      pid: floorProcess.pid,
      url: `${floorProcess.url}/api/v1/decisions`,
    };
    const summaries = await compare([plane, floor, next]);
    return { summaries, atRate: await cpuAtRate([plane, floor], SINGLE_RATE) };
  } finally {
    await floorProcess.stop();
  }
}

async function batches(server: NextServer, fixture: Fixture): Promise<Map<string, Summary>> {
  const target: Target = {
    name: "batch of 100",
    pid: server.pid,
    url: `${server.url}/api/v1/decisions/batch`,
    method: "POST",
    headers: { authorization: `Bearer ${fixture.token}`, "content-type": "application/json" },
    body: JSON.stringify({ decisions: fixture.batch.map((key) => ({ key, operation: "read" })) }),
  };
  await expectOk(target, (b) => {
    const { results } = JSON.parse(b) as { results: { allowed: boolean }[] };
    return results.length === 100 && results.every((r) => r.allowed)
      ? undefined
      : "not all allowed";
  });
  return compare([target]);
}

async function gateway(server: NextServer, fixture: Fixture, upstream: Floor, root: string) {
  const headers = { authorization: `Bearer ${fixture.gateway}` };
  const proxy = await startFloor(root, "proxy-floor", String(upstream.port));
  try {
    const targets: Target[] = [
      { name: "gateway", pid: server.pid, url: `${server.url}/gw/items`, method: "GET", headers },
      {
        name: "proxy floor (bare node:http)",
        pid: proxy.pid,
        url: `${proxy.url}/gw/items`,
        method: "GET",
        headers,
      },
      {
        name: "upstream directly",
        pid: upstream.pid,
        url: `${upstream.url}/items`,
        method: "GET",
        headers,
      },
    ];
    for (const target of targets) await expectOk(target, () => undefined);
    const summaries = await compare(targets);
    return { summaries, atRate: await cpuAtRate(targets.slice(0, 2), GATEWAY_RATE) };
  } finally {
    await proxy.stop();
  }
}

async function roundTrips(base: string, fixture: Fixture, redis: RedisServer): Promise<RoundTrips> {
  const headers = { authorization: `Bearer ${fixture.token}`, "content-type": "application/json" };
  const admin = redis.client();
  const post = async (url: string, body: unknown) => {
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    await res.arrayBuffer();
  };
  return countRoundTrips(
    admin,
    () => post(`${base}/api/v1/decisions`, { key: fixture.single, operation: "write" }),
    () =>
      post(`${base}/api/v1/decisions/batch`, {
        decisions: fixture.batch.map((key) => ({ key, operation: "write" })),
      }),
  );
}

/**
 * startEdge starts an edge on the bench's Redis, in a directory of its own, and waits until it
 * holds the control plane's policy (GET /api/health answers 200).
 */
async function startEdge(
  root: string,
  dir: string,
  redis: RedisServer,
  upstream: Floor,
): Promise<NextServer> {
  const cwd = path.join(dir, "edge");
  mkdirSync(cwd);
  const edge = await startNext(
    root,
    { RATEKEEPER_ROLE: "edge", REDIS_URL: redis.url, GATEWAY_UPSTREAM: upstream.url },
    cwd,
  );
  const deadline = Date.now() + 10_000;
  while ((await fetch(`${edge.url}/api/health`)).status !== 200) {
    if (Date.now() > deadline) {
      await edge.stop();
      throw new Error(`the edge did not load the policy:\n${edge.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return edge;
}

async function main(): Promise<void> {
  const root = process.cwd();
  const asEdge = process.argv.includes("--edge");
  const withRedis = asEdge || process.argv.includes("--redis");
  buildIfMissing(root, "/api/bench/decisions");
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-bench-decide-"));
  let server: NextServer | undefined;
  let edge: NextServer | undefined;
  let upstream: Floor | undefined;
  let redis: RedisServer | undefined;
  const stop = async () => {
    await edge?.stop();
    await server?.stop();
    await upstream?.stop();
    await redis?.close();
  };
  process.once("SIGINT", () => {
    void stop().then(() => process.exit(130));
  });
  try {
    const databasePath = path.join(dir, "bench.db");
    const adminPassword = randomBytes(12).toString("base64url");
    const fixture = seed(databasePath, adminPassword);
    upstream = await startFloor(root, "upstream");
    const env: Record<string, string> = {
      DATABASE_PATH: databasePath,
      ADMIN_PASSWORD: adminPassword,
      RATEKEEPER_BENCH: "1",
      GATEWAY_UPSTREAM: upstream.url,
    };
    if (withRedis) {
      redis = await startRedisServer();
      env.REDIS_URL = redis.url;
    }
    server = await startNext(root, env);
    if (redis && asEdge) edge = await startEdge(root, dir, redis, upstream);
    const measured = edge ?? server;
    const cpus = os.cpus();
    console.log(
      `node ${process.version}, ${cpus.length} CPUs (${cpus[0]?.model ?? "?"}), load ${fmt(os.loadavg()[0] ?? 0, 2)}; ` +
        `${CONNECTIONS} connections, ${RUN_SECONDS} s runs in mirrored order after warm-ups; ` +
        `buckets ${redis ? `in Redis (${redis.url})` : "in memory"}${edge ? "; measuring an edge" : ""}`,
    );
    const single = await singleDecisions(measured, server, fixture, root, dir);
    const batch = await batches(measured, fixture);
    const gw = await gateway(measured, fixture, upstream, root);
    const trips = redis ? await roundTrips(measured.url, fixture, redis) : undefined;
    const verdicts = report(single, batch, gw, trips);
    console.log(`\n${verdicts.lines.join("\n")}`);
    console.log(`load at the end: ${fmt(os.loadavg()[0] ?? 0, 2)}`);
    if (verdicts.missed > 0) process.exitCode = 1;
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
