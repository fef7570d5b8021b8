import { fmt, printSummaries, type Summary } from "./decide-load";
import type { RoundTrips } from "./decide-redis";

/** SINGLE_RATE and GATEWAY_RATE are the fixed rates (requests/s) CPU per request is compared at. */
export const SINGLE_RATE = 2_000;
export const GATEWAY_RATE = 1_000;

/** Measured is a comparison at full speed, and the CPU per request at one fixed rate. */
export interface Measured {
  summaries: Map<string, Summary>;
  atRate: Map<string, number>;
}

/** Verdicts are the lines of the targets' verdicts, and how many were missed. */
export interface Verdicts {
  lines: string[];
  missed: number;
}

function check(v: Verdicts, label: string, ok: boolean, detail: string): void {
  v.lines.push(`${ok ? "met   " : "MISSED"} ${label}: ${detail}`);
  if (!ok) v.missed++;
}

/** report prints each part's table and returns the verdict on every target. */
export function report(
  singleMeasured: Measured,
  batch: Map<string, Summary>,
  gwMeasured: Measured,
  trips: RoundTrips | undefined,
): Verdicts {
  const single = singleMeasured.summaries;
  const gw = gwMeasured.summaries;
  const v: Verdicts = { lines: [], missed: 0 };
  const get = (m: Map<string, Summary>, name: string) => m.get(name) as Summary;
  printSummaries("single decisions (POST /api/v1/decisions)", single);
  const plane = get(single, "data plane");
  const floor = get(single, "floor (bare node:http)");
  const next = get(single, "Next route");
  const toFloor = plane.reqPerSec / floor.reqPerSec;
  const toNext = plane.reqPerSec / next.reqPerSec;
  check(v, "single decisions vs the floor", toFloor >= 0.5, `${fmt(toFloor, 2)}x (target >= 0.5x)`);
  check(v, "single decisions vs a Next route", toNext >= 10, `${fmt(toNext, 1)}x (target >= 10x)`);
  v.lines.push(
    `       CPU per request at full speed: data plane ${fmt(plane.cpuUs, 1)} µs, floor ` +
      `${fmt(floor.cpuUs, 1)} µs (${fmt(floor.cpuUs / plane.cpuUs, 2)}x), Next route ` +
      `${fmt(next.cpuUs, 1)} µs (${fmt(next.cpuUs / plane.cpuUs, 1)}x the data plane's)`,
  );
  const planeAtRate = singleMeasured.atRate.get("data plane") ?? Number.NaN;
  const floorAtRate = singleMeasured.atRate.get("floor (bare node:http)") ?? Number.NaN;
  v.lines.push(
    `       CPU per request at ${fmt(SINGLE_RATE)} req/s: data plane ${fmt(planeAtRate, 1)} µs, ` +
      `floor ${fmt(floorAtRate, 1)} µs (${fmt(floorAtRate / planeAtRate, 2)}x)`,
  );

  const b = get(batch, "batch of 100");
  printSummaries("batches (POST /api/v1/decisions/batch, 100 decisions each)", batch, "batches/s");
  const perSecond = b.reqPerSec * 100;
  check(
    v,
    "decisions in batches of 100",
    perSecond >= 100_000,
    `${fmt(perSecond)} per s (target >= 100,000)`,
  );
  v.lines.push(
    `       CPU per decision in a batch: ${fmt(b.cpuUs / 100, 1)} µs ` +
      `(${fmt(1e6 / (b.cpuUs / 100))} decisions per CPU-second)`,
  );

  printSummaries("the gateway (GET /gw/items)", gw);
  const g = get(gw, "gateway");
  const p = get(gw, "proxy floor (bare node:http)");
  const d = get(gw, "upstream directly");
  const gwToFloor = g.reqPerSec / p.reqPerSec;
  check(
    v,
    "gateway vs the proxy floor",
    gwToFloor >= 0.8,
    `${fmt(gwToFloor, 2)}x (target >= 0.8x)`,
  );
  v.lines.push(
    `       CPU per request at full speed: gateway ${fmt(g.cpuUs, 1)} µs, proxy floor ` +
      `${fmt(p.cpuUs, 1)} µs (${fmt(p.cpuUs / g.cpuUs, 2)}x), upstream ${fmt(d.cpuUs, 1)} µs`,
  );
  const gwAtRate = gwMeasured.atRate.get("gateway") ?? Number.NaN;
  const proxyAtRate = gwMeasured.atRate.get("proxy floor (bare node:http)") ?? Number.NaN;
  v.lines.push(
    `       CPU per request at ${fmt(GATEWAY_RATE)} req/s: gateway ${fmt(gwAtRate, 1)} µs, ` +
      `proxy floor ${fmt(proxyAtRate, 1)} µs (${fmt(proxyAtRate / gwAtRate, 2)}x)`,
  );
  const added = g.p99Ms - d.p99Ms;
  check(v, "gateway p99 added over direct", added < 5, `${fmt(added, 2)} ms (target < 5 ms)`);

  if (trips) {
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
  const failed = [...single.values(), ...batch.values(), ...gw.values()].reduce(
    (s, x) => s + x.failed,
    0,
  );
  check(v, "every measured answer a 2xx", failed === 0, `${failed} failed`);
  return v;
}
