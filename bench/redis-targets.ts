import { fmtInt, fmtRatio, table } from "./harness";
import type { FloodResult } from "./redis-flood";
import type { Cost } from "./redis-measure";
import {
  FLOOD_CONCURRENCY,
  FLOOD_LIMIT,
  TARGET_FLOOD_COMMANDS,
  TARGET_P99,
  TARGET_SERVER_CPU,
  TARGET_THROUGHPUT,
  TARGET_THROUGHPUT_AT,
} from "./redis-parameters";
import { type LatencyCase, medianOf, type ThroughputCase } from "./redis-report";

/** perThousandRefused is a flood part's Redis commands per 1,000 requests it had refused. */
function perThousandRefused(commands: number, requests: number, admitted: number): number {
  return (commands * 1_000) / (requests - admitted);
}

/** floodExact says whether the flood admitted exactly its limit, all while reaching it. */
function floodExact(f: FloodResult): boolean {
  return f.reachAdmitted === FLOOD_LIMIT && f.overAdmitted === 0;
}

/** printFlood prints the flood's table: each part's requests, admitted, and Redis commands. */
export function printFlood(floods: readonly FloodResult[]): void {
  console.log(
    `Flood: one customer (${fmtInt(FLOOD_LIMIT)} reads an hour) floods one instance through ` +
      `the app's decide-and-record path, ${FLOOD_CONCURRENCY} requests in flight: first ` +
      "reaching its limit, then over it. Redis commands by INFO commandstats (every command, " +
      "those scripts run included):",
  );
  const rows = floods.flatMap((f) => {
    const cache = f.denyCache ? "on" : "off";
    return [
      [
        `deny cache ${cache}, reaching the limit`,
        fmtInt(f.reachRequests),
        fmtInt(f.reachAdmitted),
        fmtInt(f.reachCommands),
        perThousandRefused(f.reachCommands, f.reachRequests, f.reachAdmitted).toFixed(1),
        "",
      ],
      [
        `deny cache ${cache}, over the limit`,
        fmtInt(f.overRequests),
        fmtInt(f.overAdmitted),
        fmtInt(f.overCommands),
        perThousandRefused(f.overCommands, f.overRequests, f.overAdmitted).toFixed(1),
        fmtInt(f.cacheHits),
      ],
    ];
  });
  console.log(
    table(
      [
        "part",
        "requests",
        "admitted",
        "Redis commands",
        "per 1,000 refused",
        "answered from memory (whole flood)",
      ],
      rows,
    ),
  );
}

/**
 * printTargets prints PASS or MISS for each target, measured in this run against
 * RateLimiterRedis: redis-server CPU per decision, throughput at the target concurrencies,
 * p99 per decision, and the flood's commands with the deny cache on (and its exactness).
 */
export function printTargets(
  latency: readonly LatencyCase[],
  throughput: readonly ThroughputCase[],
  floods: readonly FloodResult[],
): void {
  const target = (ok: boolean, text: string) => console.log(`${ok ? "PASS" : "MISS"}  ${text}`);
  const server = (rounds: Record<"rk" | "rlf", readonly Cost[]>) =>
    medianOf(rounds.rk, (r) => r.serverCpu) / medianOf(rounds.rlf, (r) => r.serverCpu);
  const workloads = [
    ...latency.map((c) => ({ name: `sequential, ${c.name}`, rounds: c.rounds })),
    ...throughput.map((c) => ({ name: `C=${c.concurrency}, ${c.keys}`, rounds: c.rounds })),
  ];
  for (const { name, rounds } of workloads) {
    const ratio = server(rounds);
    target(
      ratio <= TARGET_SERVER_CPU,
      `redis-server CPU per decision <= ${fmtRatio(TARGET_SERVER_CPU)} theirs, ${name}: ${fmtRatio(ratio)}`,
    );
  }
  for (const c of throughput) {
    if (!TARGET_THROUGHPUT_AT.includes(c.concurrency)) continue;
    const ratio =
      medianOf(c.rounds.rk, (r) => r.perSecond) / medianOf(c.rounds.rlf, (r) => r.perSecond);
    target(
      ratio >= TARGET_THROUGHPUT,
      `throughput >= ${fmtRatio(TARGET_THROUGHPUT)} theirs, C=${c.concurrency}, ${c.keys}: ${fmtRatio(ratio)}`,
    );
  }
  const p99s: { name: string; rounds: Record<"rk" | "rlf", readonly { p99: number }[]> }[] = [
    ...latency.map((c) => ({ name: `sequential, ${c.name}`, rounds: c.rounds })),
    ...throughput.map((c) => ({ name: `C=${c.concurrency}, ${c.keys}`, rounds: c.rounds })),
  ];
  for (const { name, rounds } of p99s) {
    const ratio = medianOf(rounds.rk, (r) => r.p99) / medianOf(rounds.rlf, (r) => r.p99);
    target(
      ratio <= TARGET_P99,
      `p99 <= ${fmtRatio(TARGET_P99)} theirs, ${name}: ${fmtRatio(ratio)}`,
    );
  }
  for (const f of floods) {
    if (!f.denyCache) continue;
    const perThousand = perThousandRefused(f.overCommands, f.overRequests, f.overAdmitted);
    target(
      perThousand <= TARGET_FLOOD_COMMANDS && floodExact(f),
      `flood over the limit, deny cache on: <= ${TARGET_FLOOD_COMMANDS} Redis commands per ` +
        `1,000 refused (${perThousand.toFixed(1)}), exactly ${fmtInt(FLOOD_LIMIT)} admitted ` +
        `(${fmtInt(f.reachAdmitted + f.overAdmitted)})`,
    );
  }
}

/** floodsExact says whether every flood admitted exactly its limit. */
export function floodsExact(floods: readonly FloodResult[]): boolean {
  return floods.every(floodExact);
}
