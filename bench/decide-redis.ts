import type { Redis } from "ioredis";
import { DECIDE } from "../lib/limiter-redis/script";
import { CLAIM, LIVE_SPAN, PUSH, RECLAIM } from "../lib/usage/redis-scripts";
import { BATCH_SIZE } from "./decide-setup";

/**
 * The commands the app's scripts run inside Redis (read from the scripts: a decision's, the usage
 * rollups' push and claims, the live view's seconds): not round trips.
 */
const SCRIPT_INNER = new Set(
  [DECIDE, PUSH, CLAIM, RECLAIM, LIVE_SPAN].flatMap((script) =>
    [...script.matchAll(/redis\.p?call\('([A-Za-z]+)'/g)].map((m) =>
      (m[1] as string).toLowerCase(),
    ),
  ),
);
/** The bench's own commands, left out. */
const OWN = new Set(["info"]);
/**
 * BACKGROUND are commands a timer sends, not a decision: an edge compares its policy snapshot's
 * stamp with Redis's once a second (HMGET), and every instance pushes its live view's seconds
 * each second (HINCRBY, PEXPIRE and one EVAL of LIVE_SPAN per span, in a pipeline). A decision's
 * script goes by EVALSHA (by EVAL only once after Redis lost it, which a running bench does not
 * see). Counted apart, per second. (The usage rollups' push, one EVALSHA per flush interval, is
 * counted with the decisions' EVALSHAs.)
 */
const BACKGROUND = new Set(["hmget", "hincrby", "pexpire", "eval"]);

async function commandCalls(admin: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of (await admin.info("commandstats")).split("\n")) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) calls.set(match[1] as string, Number(match[2]));
  }
  return calls;
}

function sentBetween(
  before: Map<string, number>,
  after: Map<string, number>,
  background: Record<string, number>,
) {
  const sent: Record<string, number> = {};
  for (const [name, calls] of after) {
    const delta = calls - (before.get(name) ?? 0);
    if (delta <= 0 || SCRIPT_INNER.has(name) || OWN.has(name)) continue;
    if (BACKGROUND.has(name)) background[name] = (background[name] ?? 0) + delta;
    else sent[name] = delta;
  }
  return sent;
}

/** RoundTrips are the commands the server sent Redis per decision, by command, single and batched. */
export interface RoundTrips {
  decisions: number;
  single: Record<string, number>;
  batches: number;
  batched: Record<string, number>;
  /** background are the commands sent on a timer meanwhile (see BACKGROUND), per second. */
  background: Record<string, number>;
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
  const background: Record<string, number> = {};
  const started = performance.now();
  const before = await commandCalls(admin);
  for (let i = 0; i < decisions; i++) await decide();
  const middle = await commandCalls(admin);
  for (let i = 0; i < batches; i++) await decideBatch();
  const after = await commandCalls(admin);
  const seconds = (performance.now() - started) / 1_000;
  const per = (sent: Record<string, number>, n: number) =>
    Object.fromEntries(Object.entries(sent).map(([name, calls]) => [name, calls / n]));
  return {
    decisions,
    single: per(sentBetween(before, middle, background), decisions),
    batches,
    batched: per(sentBetween(middle, after, background), batches * BATCH_SIZE),
    background: per(background, seconds),
  };
}
