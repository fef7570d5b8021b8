import type { Redis } from "ioredis";
import { DECIDE } from "../lib/limiter-redis/script";
import { BATCH_SIZE } from "./decide-setup";

/** The commands a decision's script runs inside Redis (read from the script): not round trips. */
const SCRIPT_INNER = new Set(
  [...DECIDE.matchAll(/redis\.p?call\('([A-Za-z]+)'/g)].map((m) => (m[1] as string).toLowerCase()),
);
/** The bench's own commands, left out. */
const OWN = new Set(["info"]);

async function commandCalls(admin: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of (await admin.info("commandstats")).split("\n")) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) calls.set(match[1] as string, Number(match[2]));
  }
  return calls;
}

function sentBetween(before: Map<string, number>, after: Map<string, number>) {
  const sent: Record<string, number> = {};
  for (const [name, calls] of after) {
    const delta = calls - (before.get(name) ?? 0);
    if (delta > 0 && !SCRIPT_INNER.has(name) && !OWN.has(name)) sent[name] = delta;
  }
  return sent;
}

/** RoundTrips are the commands the server sent Redis per decision, by command, single and batched. */
export interface RoundTrips {
  decisions: number;
  single: Record<string, number>;
  batches: number;
  batched: Record<string, number>;
}

/**
 * countRoundTrips makes `decisions` sequential single decisions, then `batches` batches of
 * BATCH_SIZE, through the server, reading INFO commandstats before and after each part: every
 * command the server sent, less those a script ran inside Redis. Nothing else runs meanwhile.
 */
export async function countRoundTrips(
  admin: Redis,
  decide: () => Promise<void>,
  decideBatch: () => Promise<void>,
  decisions = 1_000,
  batches = 10,
): Promise<RoundTrips> {
  const before = await commandCalls(admin);
  for (let i = 0; i < decisions; i++) await decide();
  const middle = await commandCalls(admin);
  for (let i = 0; i < batches; i++) await decideBatch();
  const after = await commandCalls(admin);
  const per = (sent: Record<string, number>, n: number) =>
    Object.fromEntries(Object.entries(sent).map(([name, calls]) => [name, calls / n]));
  return {
    decisions,
    single: per(sentBetween(before, middle), decisions),
    batches,
    batched: per(sentBetween(middle, after), batches * BATCH_SIZE),
  };
}
