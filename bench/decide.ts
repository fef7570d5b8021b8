/**
 * The data plane's benchmark: `npm run bench:decide` (tsx). It builds the app if needed, starts
 * the server entry (dist/server.mjs) on 127.0.0.1 with a temporary database and the gateway in
 * front of an upstream, and loads it with autocannon over 10 keep-alive connections, each target
 * in a process of its own (bench/decide-floors.ts):
 *
 * 1. single decisions, POST /api/v1/decisions, against the floor (a bare node:http server that
 *    reads the body and answers the same JSON without deciding) and against the same decision
 *    through a Next route handler (POST /api/bench/decisions, 404 unless RATEKEEPER_BENCH=1);
 * 2. batches of 100 decisions, POST /api/v1/decisions/batch, beside the same floor;
 * 3. the gateway, GET /gw/items, against the upstream called directly and a bare node:http
 *    proxy (the floor).
 *
 * Method (bench/rounds.ts): every target runs once per round, at least five rounds (`--rounds
 * N`), the order alternating; each figure is the median of its rounds with their range, each
 * ratio is taken within a round. autocannon runs in this process, on the same cores as the
 * servers: the verdicts compare CPU time per request (read from /proc), which that competition
 * moves least, and every part says what else shared the machine. The targets are in TARGETS
 * (bench/decide-report.ts).
 *
 * With `--redis` (`npm run bench:decide -- --redis`) the server keeps its buckets in a
 * redis-server the bench starts, and the bench also counts the commands the server sends Redis
 * per decision (INFO commandstats; target: exactly one).
 *
 * With `--edge` (`npm run bench:decide -- --edge`) the buckets are in Redis too, and what is
 * measured is an edge (RATEKEEPER_ROLE=edge, in a directory of its own, no database) whose
 * policy comes from the control plane started beside it; the full app's own decisions on the same
 * Redis are measured in the same rounds, and the Next route compared against is the control
 * plane's.
 *
 * With `--profile DIR` the measured server writes a V8 CPU profile (.cpuprofile) into DIR when
 * the bench stops it.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type RedisServer, startRedisServer } from "../test/support/redis-server";
import { CONNECTIONS, fmt, measure, RUN_SECONDS, type Target } from "./decide-load";
import { countRoundTrips, type RoundTrips } from "./decide-redis";
import {
  BATCH,
  FLOOR,
  FULL_APP,
  GATEWAY,
  GATEWAY_RATE,
  type Measured,
  NEXT_ROUTE,
  PLANE,
  PROXY_FLOOR,
  report,
  SINGLE_RATE,
  UPSTREAM,
} from "./decide-report";
import { type Fixture, type Floor, seed, startFloor } from "./decide-setup";
import { buildIfMissing, type NextServer, startNext } from "./next-server";
import { roundsArg } from "./rounds";

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

/** Servers are the processes a run measures: the measured one, and the full app beside an edge. */
interface Servers {
  measured: NextServer;
  /** control is the full app: the Next route's process, and (beside an edge) a target itself. */
  control: NextServer;
  edge: boolean;
}

function decisionTarget(name: string, server: NextServer, fixture: Fixture): Target {
  return {
    name,
    pid: server.pid,
    url: `${server.url}/api/v1/decisions`,
    method: "POST",
    headers: { authorization: `Bearer ${fixture.token}`, "content-type": "application/json" },
    body: JSON.stringify({ key: fixture.single, operation: "read" }),
  };
}

/**
 * startDecisionFloor starts the floor of single decisions: a bare node:http server answering a
 * real decision's answer, byte for byte, captured from the measured server.
 */
async function startDecisionFloor(plane: Target, root: string, dir: string): Promise<Floor> {
  const answer = await expectOk(plane, allowed);
  const file = path.join(dir, "decision.json");
  writeFileSync(file, answer);
  return startFloor(root, "decision-floor", file);
}

async function singleDecisions(
  servers: Servers,
  fixture: Fixture,
  floor: Floor,
  rounds: number,
): Promise<Measured> {
  const plane = decisionTarget(PLANE, servers.measured, fixture);
  const next: Target = {
    ...decisionTarget(NEXT_ROUTE, servers.control, fixture),
    url: `${servers.control.url}/api/bench/decisions`,
  };
  await expectOk(next, allowed);
  const floorTarget: Target = {
    ...plane,
    name: FLOOR,
    pid: floor.pid,
    url: `${floor.url}/api/v1/decisions`,
  };
  const targets = [plane, floorTarget, next];
  if (servers.edge) {
    const fullApp = decisionTarget(FULL_APP, servers.control, fixture);
    await expectOk(fullApp, allowed);
    targets.splice(1, 0, fullApp);
  }
  const full = await measure(targets, rounds);
  return { full, atRate: await measure([plane, floorTarget], rounds, { rate: SINGLE_RATE }) };
}

async function batches(server: NextServer, fixture: Fixture, floor: Floor, rounds: number) {
  const target: Target = {
    name: BATCH,
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
  const floorTarget: Target = {
    ...decisionTarget(FLOOR, server, fixture),
    pid: floor.pid,
    url: `${floor.url}/api/v1/decisions`,
  };
  return measure([target, floorTarget], rounds);
}

async function gateway(
  server: NextServer,
  fixture: Fixture,
  upstream: Floor,
  root: string,
  rounds: number,
): Promise<Measured> {
  const headers = { authorization: `Bearer ${fixture.gateway}` };
  const proxy = await startFloor(root, "proxy-floor", String(upstream.port));
  try {
    const targets: Target[] = [
      {
        name: GATEWAY,
        pid: server.pid,
        helpers: [upstream.pid],
        url: `${server.url}/gw/items`,
        method: "GET",
        headers,
      },
      {
        name: PROXY_FLOOR,
        pid: proxy.pid,
        helpers: [upstream.pid],
        url: `${proxy.url}/gw/items`,
        method: "GET",
        headers,
      },
      { name: UPSTREAM, pid: upstream.pid, url: `${upstream.url}/items`, method: "GET", headers },
    ];
    for (const target of targets) await expectOk(target, () => undefined);
    const full = await measure(targets, rounds);
    return { full, atRate: await measure(targets.slice(0, 2), rounds, { rate: GATEWAY_RATE }) };
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
  nodeArgs: string[],
): Promise<NextServer> {
  const cwd = path.join(dir, "edge");
  mkdirSync(cwd);
  const edge = await startNext(
    root,
    { RATEKEEPER_ROLE: "edge", REDIS_URL: redis.url, GATEWAY_UPSTREAM: upstream.url },
    cwd,
    nodeArgs,
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

/** profileArgs are the node flags that write the measured server's CPU profile into `--profile DIR`. */
function profileArgs(argv: readonly string[]): string[] {
  const at = argv.indexOf("--profile");
  if (at < 0) return [];
  const dir = argv[at + 1];
  if (!dir || dir.startsWith("--")) throw new Error("--profile takes a directory");
  return ["--cpu-prof", `--cpu-prof-dir=${path.resolve(dir)}`];
}

async function main(): Promise<void> {
  const root = process.cwd();
  const asEdge = process.argv.includes("--edge");
  const withRedis = asEdge || process.argv.includes("--redis");
  const rounds = roundsArg(process.argv);
  const profile = profileArgs(process.argv);
  buildIfMissing(root, "/api/bench/decisions");
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-bench-decide-"));
  let server: NextServer | undefined;
  let edge: NextServer | undefined;
  let upstream: Floor | undefined;
  let floor: Floor | undefined;
  let redis: RedisServer | undefined;
  const stop = async () => {
    await floor?.stop();
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
    server = await startNext(root, env, root, asEdge ? [] : profile);
    if (redis && asEdge) edge = await startEdge(root, dir, redis, upstream, profile);
    const measured = edge ?? server;
    const servers: Servers = { measured, control: server, edge: edge !== undefined };
    const cpus = os.cpus();
    console.log(
      `node ${process.version}, ${cpus.length} CPUs (${cpus[0]?.model ?? "?"}), load ${fmt(os.loadavg()[0] ?? 0, 2)}; ` +
        `${CONNECTIONS} connections; ${rounds} rounds of ${RUN_SECONDS} s runs, the targets' order alternating, after warm-ups; ` +
        `figures are medians (range) of the rounds, ratios taken within each round; ` +
        `buckets ${redis ? `in Redis (${redis.url})` : "in memory"}` +
        `${edge ? "; measuring an edge, the full app beside it on the same Redis" : ""}`,
    );
    floor = await startDecisionFloor(decisionTarget(PLANE, measured, fixture), root, dir);
    const single = await singleDecisions(servers, fixture, floor, rounds);
    const batch = await batches(measured, fixture, floor, rounds);
    const gw = await gateway(measured, fixture, upstream, root, rounds);
    const trips = redis ? await roundTrips(measured.url, fixture, redis) : undefined;
    const verdicts = report({
      single,
      batch,
      gateway: gw,
      trips,
      edge: edge !== undefined,
      redis: redis !== undefined,
    });
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
