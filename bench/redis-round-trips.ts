import type { Redis } from "ioredis";
import { fmtInt, table } from "./harness";
import {
  DENIED_KEY,
  HOT_KEY,
  IMPL_NAMES,
  IMPLS,
  type Impl,
  ROUND_TRIP_CALLS,
} from "./redis-parameters";
import type { Bench, Decide } from "./redis-setup";

/** Path names a decision path: on the hot key (allowed) or on the drained key (denied). */
export type Path = "hot" | "denied";

/** RoundTrips is what one implementation's `calls` sequential decisions on one path cost Redis. */
export interface RoundTrips {
  impl: Impl;
  path: Path;
  calls: number;
  /** perCommand is each command's calls per decision, by INFO commandstats (inner ones too). */
  perCommand: Map<string, number>;
  /** clientCommands is the commands per decision the decision's connection sent (MONITOR). */
  clientCommands: number;
  /** scriptCommands is the commands per decision run inside a script (MONITOR's "lua" source). */
  scriptCommands: number;
  /** failed is the failed and rejected calls per decision, by INFO commandstats (0 expected). */
  failed: number;
  /** scriptUs is the server's µs per decision in EVALSHA / EVAL (the commands it runs included). */
  scriptUs: number;
}

/** CommandStat is one command's line of INFO commandstats. */
interface CommandStat {
  calls: number;
  usec: number;
  failed: number;
}

/** commandstats reads INFO commandstats: calls, µs and failed + rejected calls per command. */
async function commandstats(admin: Redis): Promise<Map<string, CommandStat>> {
  const stats = new Map<string, CommandStat>();
  for (const line of (await admin.info("commandstats")).split("\n")) {
    const match = /^cmdstat_([^:]+):(.*)$/.exec(line.trim());
    if (!match) continue;
    const fields = new Map(
      (match[2] ?? "").split(",").map((pair) => pair.split("=") as [string, string]),
    );
    const num = (name: string) => Number(fields.get(name) ?? 0);
    stats.set(match[1] ?? "", {
      calls: num("calls"),
      usec: num("usec"),
      failed: num("failed_calls") + num("rejected_calls"),
    });
  }
  return stats;
}

/** The commands of the measuring connections themselves, left out of the counts. */
const OWN_COMMANDS = new Set(["info", "echo", "monitor"]);
/** The commands that run a script: their time includes the commands the script runs. */
const SCRIPT_COMMANDS = new Set(["eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro"]);

/**
 * countRoundTrips makes ROUND_TRIP_CALLS sequential decisions and counts what reached Redis:
 * INFO commandstats before and after (every command, including those a script runs) and,
 * meanwhile, MONITOR, which tells the commands the decision's connection sent from those run
 * inside a script ("lua"). Nothing else talks to the server meanwhile.
 */
async function countRoundTrips(
  bench: Bench,
  client: Redis,
  decide: Decide,
  key: string,
  impl: Impl,
  path: Path,
): Promise<RoundTrips> {
  const monitor = await bench.admin.monitor();
  try {
    const source = `127.0.0.1:${client.stream.localPort}`;
    const sentinel = `round-trips-${impl}-${path}-${process.hrtime.bigint()}`;
    let fromClient = 0;
    let fromScripts = 0;
    let sawSentinel: () => void = () => {};
    const sentinelSeen = new Promise<void>((resolve) => (sawSentinel = resolve));
    monitor.on("monitor", (_time: string, args: string[], from: string) => {
      if (args[0]?.toLowerCase() === "echo" && args[1] === sentinel) sawSentinel();
      else if (from === source) fromClient++;
      else if (from === "lua") fromScripts++;
    });
    const before = await commandstats(bench.admin);
    for (let i = 0; i < ROUND_TRIP_CALLS; i++) await decide(key);
    const after = await commandstats(bench.admin);
    await bench.admin.echo(sentinel);
    await Promise.race([
      sentinelSeen,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error("MONITOR did not report the sentinel")), 5_000).unref(),
      ),
    ]);
    const perCommand = new Map<string, number>();
    let failed = 0;
    let scriptUsec = 0;
    for (const [name, stat] of after) {
      if (OWN_COMMANDS.has(name)) continue;
      const was = before.get(name) ?? { calls: 0, usec: 0, failed: 0 };
      if (stat.calls > was.calls) perCommand.set(name, (stat.calls - was.calls) / ROUND_TRIP_CALLS);
      failed += stat.failed - was.failed;
      if (SCRIPT_COMMANDS.has(name)) scriptUsec += stat.usec - was.usec;
    }
    return {
      impl,
      path,
      calls: ROUND_TRIP_CALLS,
      perCommand,
      clientCommands: fromClient / ROUND_TRIP_CALLS,
      scriptCommands: fromScripts / ROUND_TRIP_CALLS,
      failed: failed / ROUND_TRIP_CALLS,
      scriptUs: scriptUsec / ROUND_TRIP_CALLS,
    };
  } finally {
    monitor.disconnect();
  }
}

/** runRoundTrips counts, for each implementation, a hot and a denied path's commands. */
export async function runRoundTrips(bench: Bench): Promise<RoundTrips[]> {
  const counts: RoundTrips[] = [];
  for (const path of ["hot", "denied"] as const) {
    for (const impl of IMPLS) {
      const target = bench.targets[impl];
      const key = path === "hot" ? HOT_KEY : DENIED_KEY;
      counts.push(await countRoundTrips(bench, target.client, target[path], key, impl, path));
    }
  }
  return counts;
}

/** printRoundTrips prints what a decision costs Redis, by INFO commandstats and MONITOR. */
export function printRoundTrips(counts: readonly RoundTrips[]): void {
  const calls = counts[0]?.calls ?? 0;
  console.log(
    `Round trips: ${fmtInt(calls)} sequential decisions per implementation and path; INFO ` +
      "commandstats before and after (every command, those a script runs included), and MONITOR " +
      "to tell the commands the connection sent from those run inside the script; server time is the " +
      "commandstats time per decision in EVALSHA / EVAL, the script's own commands included:",
  );
  const rows = counts.map((c) => {
    const commands = [...c.perCommand]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, perCall]) => `${name} ${perCall.toFixed(2)}`)
      .join(", ");
    return [
      `${c.path}, ${IMPL_NAMES[c.impl]}`,
      c.clientCommands.toFixed(2),
      c.scriptCommands.toFixed(2),
      c.failed.toFixed(2),
      `${c.scriptUs.toFixed(1)} µs`,
      commands,
      c.clientCommands === 1 && c.failed === 0 ? "yes" : "NO",
    ];
  });
  console.log(
    table(
      [
        "path, implementation",
        "sent/decision",
        "in script/decision",
        "failed",
        "server time",
        "commandstats calls per decision",
        "one round trip",
      ],
      rows,
    ),
  );
}
