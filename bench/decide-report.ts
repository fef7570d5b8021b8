import {
  field,
  fmt,
  fmtSpread,
  printRounds,
  type Rounds,
  runsOf,
  sharingLine,
} from "./decide-load";
import type { RoundTrips } from "./decide-redis";
import { ratioSpread, type Spread, spreadOf } from "./rounds";

/** SINGLE_RATE and GATEWAY_RATE are the fixed rates (requests/s) CPU per request is compared at. */
export const SINGLE_RATE = 2_000;
export const GATEWAY_RATE = 1_000;

/** The targets' names, as the tables print them. */
export const PLANE = "data plane";
export const FULL_APP = "full app (same Redis)";
export const FLOOR = "floor (bare node:http)";
export const NEXT_ROUTE = "Next route";
export const BATCH = "batch of 100";
export const GATEWAY = "gateway";
export const PROXY_FLOOR = "proxy floor (bare node:http)";
export const UPSTREAM = "upstream directly";

/**
 * The floors the verdicts compare against, each a ratio within a round (medians of the rounds).
 * Single decisions and the gateway are compared on CPU per request, the figure the load generator
 * (on the same cores) disturbs least; throughput is printed beside it.
 */
export const TARGETS = {
  /** The floor's CPU per request over the data plane's, buckets in memory. */
  singleInMemory: 0.6,
  /** The same with the buckets in Redis (a round trip per decision). */
  singleOnRedis: 0.4,
  /** The data plane's throughput over the same decision's through a Next route handler. */
  overNext: 10,
  /**
   * A batch's decisions per CPU-second over the floor's requests per CPU-second, buckets in
   * memory: a batch of 100 is one request for 100 decisions. Before the decision path's last work, four runs (medians of
   * 5 rounds each) read 3.36x to 4.24x, 3.7x in the middle; it may not fall below that.
   */
  batchOverFloor: 3.7,
  /** The proxy floor's CPU per request over the gateway's. */
  gatewayInMemory: 0.7,
  /** The gateway's p99 over the upstream's, called directly (ms, at most). */
  gatewayAddedP99Ms: 5,
  /** An edge's CPU per decision over the full app's, on the same Redis (at most). */
  edgeOverFullApp: 1,
} as const;

/** Measured is a comparison at full speed, and the CPU per request at one fixed rate. */
export interface Measured {
  full: Rounds;
  atRate: Rounds;
}

/** Verdicts are the lines of the targets' verdicts, and how many were missed. */
export interface Verdicts {
  lines: string[];
  missed: number;
}

/** Parts are everything one run measured. */
export interface Parts {
  single: Measured;
  batch: Rounds;
  gateway: Measured;
  trips?: RoundTrips;
  /** edge: the measured server is an edge, and FULL_APP is in `single` beside it. */
  edge: boolean;
  redis: boolean;
}

function check(v: Verdicts, label: string, ok: boolean, detail: string): void {
  v.lines.push(`${ok ? "met   " : "MISSED"} ${label}: ${detail}`);
  if (!ok) v.missed++;
}

const cpu = (rounds: Rounds, name: string) => field(rounds, name, (r) => r.cpuUs);
const rps = (rounds: Rounds, name: string) => field(rounds, name, (r) => r.reqPerSec);
const x = (s: Spread) => fmtSpread(s, 2, "x");

/** cpuRatio is `floor`'s CPU per request over `ours`, round by round: 1 means as cheap as the floor. */
function cpuRatio(rounds: Rounds, ours: string, floor: string): Spread {
  return ratioSpread(cpu(rounds, floor), cpu(rounds, ours));
}

function reportSingle(v: Verdicts, parts: Parts): void {
  const { full, atRate } = parts.single;
  printRounds("single decisions (POST /api/v1/decisions)", full);
  const target = parts.redis ? TARGETS.singleOnRedis : TARGETS.singleInMemory;
  const toFloor = cpuRatio(full, PLANE, FLOOR);
  check(
    v,
    "single decisions vs the floor, CPU per request",
    toFloor.median >= target,
    `${x(toFloor)} (target >= ${target}x)`,
  );
  v.lines.push(
    `       throughput vs the floor ${x(ratioSpread(rps(full, PLANE), rps(full, FLOOR)))}; ` +
      `CPU per request at ${fmt(SINGLE_RATE)} req/s vs the floor ${x(cpuRatio(atRate, PLANE, FLOOR))}`,
  );
  const toNext = ratioSpread(rps(full, PLANE), rps(full, NEXT_ROUTE));
  check(
    v,
    "single decisions vs a Next route, throughput",
    toNext.median >= TARGETS.overNext,
    `${fmtSpread(toNext, 1, "x")} (target >= ${TARGETS.overNext}x; CPU per request ` +
      `${fmtSpread(ratioSpread(cpu(full, NEXT_ROUTE), cpu(full, PLANE)), 1, "x")} the data plane's)`,
  );
  if (parts.edge) {
    const edgeOverFull = ratioSpread(cpu(full, PLANE), cpu(full, FULL_APP));
    check(
      v,
      "the edge's CPU per decision vs the full app's on the same Redis",
      edgeOverFull.median <= TARGETS.edgeOverFullApp,
      `${x(edgeOverFull)} (target <= ${TARGETS.edgeOverFullApp}x; edge ` +
        `${fmtSpread(spreadOf(cpu(full, PLANE)), 1, " µs")}, full app ` +
        `${fmtSpread(spreadOf(cpu(full, FULL_APP)), 1, " µs")})`,
    );
  }
  v.lines.push(`       ${sharingLine(full)}`);
}

function reportBatch(v: Verdicts, parts: Parts): void {
  const { batch } = parts;
  printRounds(
    "batches (POST /api/v1/decisions/batch, 100 decisions each; the floor beside it)",
    batch,
  );
  const perDecision = cpu(batch, BATCH).map((us) => us / 100);
  const overFloor = ratioSpread(cpu(batch, FLOOR), perDecision);
  const label = "decisions in batches of 100 vs the floor's requests, per CPU-second";
  // The floor was measured with the buckets in memory; with Redis the figure is only reported.
  if (parts.redis) v.lines.push(`       ${label}: ${x(overFloor)}`);
  else {
    check(
      v,
      label,
      overFloor.median >= TARGETS.batchOverFloor,
      `${x(overFloor)} (target >= ${TARGETS.batchOverFloor}x)`,
    );
  }
  v.lines.push(
    `       decisions per second in batches ${fmtSpread(spreadOf(rps(batch, BATCH).map((n) => n * 100)))}; ` +
      `CPU per decision ${fmtSpread(spreadOf(perDecision), 1, " µs")}`,
  );
}

function reportGateway(v: Verdicts, parts: Parts): void {
  const { full, atRate } = parts.gateway;
  printRounds("the gateway (GET /gw/items)", full);
  const toFloor = cpuRatio(full, GATEWAY, PROXY_FLOOR);
  check(
    v,
    "gateway vs the proxy floor, CPU per request",
    toFloor.median >= TARGETS.gatewayInMemory,
    `${x(toFloor)} (target >= ${TARGETS.gatewayInMemory}x)`,
  );
  v.lines.push(
    `       throughput vs the proxy floor ${x(ratioSpread(rps(full, GATEWAY), rps(full, PROXY_FLOOR)))}; ` +
      `CPU per request at ${fmt(GATEWAY_RATE)} req/s vs the proxy floor ${x(cpuRatio(atRate, GATEWAY, PROXY_FLOOR))}`,
  );
  const p99 = (name: string) => field(full, name, (r) => r.p99Ms);
  const upstream = p99(UPSTREAM);
  const added = spreadOf(p99(GATEWAY).map((ms, i) => ms - (upstream[i] as number)));
  check(
    v,
    "gateway p99 added over direct",
    added.median < TARGETS.gatewayAddedP99Ms,
    `${fmtSpread(added, 2, " ms")} (target < ${TARGETS.gatewayAddedP99Ms} ms)`,
  );
  v.lines.push(`       ${sharingLine(full)}`);
}

function reportTrips(v: Verdicts, trips: RoundTrips): void {
  console.log(
    `\nRedis commands per decision (INFO commandstats, script-internal commands left out): ` +
      `${fmt(trips.decisions)} single ${JSON.stringify(trips.single)}, ` +
      `${fmt(trips.batches)} batches of 100 ${JSON.stringify(trips.batched)}; ` +
      `on a timer, per second: ${JSON.stringify(trips.background)}`,
  );
  const total = (sent: Record<string, number>) => Object.values(sent).reduce((s, n) => s + n, 0);
  check(
    v,
    "Redis round trips per single decision",
    total(trips.single) === 1,
    `${total(trips.single)} (target 1)`,
  );
  // Decisions of one tick share a script run (up to 64): a batch may take fewer than one each.
  check(
    v,
    "Redis round trips per batched decision",
    total(trips.batched) > 0 && total(trips.batched) <= 1,
    `${fmt(total(trips.batched), 3)} (target: at most 1; a batch may pipeline)`,
  );
}

/** report prints each part's table and returns the verdict on every target. */
export function report(parts: Parts): Verdicts {
  const v: Verdicts = { lines: [], missed: 0 };
  reportSingle(v, parts);
  reportBatch(v, parts);
  reportGateway(v, parts);
  if (parts.trips) reportTrips(v, parts.trips);
  const all = [parts.single.full, parts.batch, parts.gateway.full];
  const failed = all
    .flatMap((rounds) => [...rounds.keys()].flatMap((name) => runsOf(rounds, name)))
    .reduce((s, run) => s + run.failed, 0);
  check(v, "every measured answer a 2xx", failed === 0, `${failed} failed`);
  return v;
}
