import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Redis } from "ioredis";
import { insertCustomer } from "../db/queries/customers";
import { insertPlan } from "../db/queries/plans";
import { silentLogger } from "../lib/log";
import { generateApiKey } from "../lib/policy/api-key";
import { decide } from "../lib/policy/decide";
import { createRuntime, type Runtime } from "../lib/runtime";
import { FLOOD_CONCURRENCY, FLOOD_LIMIT, FLOOD_OVER, FLOOD_REACH_EXTRA } from "./redis-parameters";

/**
 * FloodResult is one customer flooding one instance: first reaching its limit (FLOOD_LIMIT
 * reads an hour, with FLOOD_REACH_EXTRA more requests than that), then FLOOD_OVER requests
 * over it, each part FLOOD_CONCURRENCY in flight, with the Redis commands each part cost
 * (INFO commandstats: every command, those scripts run included).
 */
export interface FloodResult {
  denyCache: boolean;
  reachRequests: number;
  reachAdmitted: number;
  reachCommands: number;
  overRequests: number;
  overAdmitted: number;
  overCommands: number;
  /** cacheHits is the refusals the instance answered from memory (its metric). */
  cacheHits: number;
}

/** redisCommands is the number of commands the server ran so far, INFO itself left out. */
async function redisCommands(admin: Redis): Promise<number> {
  let calls = 0;
  for (const match of (await admin.info("commandstats")).matchAll(
    /^cmdstat_([^:]+):calls=(\d+)/gm,
  )) {
    if (match[1] !== "info") calls += Number(match[2]);
  }
  return calls;
}

/** cacheHits reads the instance's ratekeeper_deny_cache_hits_total. */
async function cacheHits(runtime: Runtime): Promise<number> {
  const text = await runtime.metrics.registry.metrics();
  return Number(/^ratekeeper_deny_cache_hits_total (\d+)/m.exec(text)?.[1] ?? 0);
}

/**
 * flood runs the flood on a fresh instance (its own temporary database, the bench's Redis,
 * the deny cache on or off) through the app's decide-and-record path, as protected requests
 * decide, and counts what got through and what Redis ran.
 */
export async function flood(url: string, admin: Redis, denyCache: boolean): Promise<FloodResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-flood-"));
  const runtime = createRuntime({
    databasePath: path.join(dir, "flood.db"),
    log: silentLogger,
    redis: {
      url,
      prefix: `flood-${denyCache ? "cached" : "uncached"}`,
      timeoutMs: 2_000,
      denyCache: denyCache ? undefined : 0,
    },
  });
  try {
    await runtime.ready();
    const now = runtime.clock.now();
    const plan = insertPlan(
      runtime.db,
      {
        slug: "flood",
        name: "Flood",
        description: "",
        limits: [{ operation: "read", count: FLOOD_LIMIT, periodMs: 3_600_000 }],
      },
      now,
    );
    const key = generateApiKey();
    const id = insertCustomer(
      runtime.db,
      { name: "Flooder", planId: plan.id, apiKeyHash: key.hash, apiKeyPrefix: key.prefix },
      now,
    );
    runtime.policy.applyEdit();
    const customer = runtime.policy.snapshot.byId.get(id);
    if (!customer) throw new Error("the flood's customer is not in the policy");

    const send = async (requests: number): Promise<number> => {
      let next = 0;
      let admitted = 0;
      const worker = async () => {
        while (next < requests) {
          next++;
          const verdict = await decide(runtime, customer, "read", 1);
          if (verdict.reason === "store_unavailable") throw new Error("Redis was unavailable");
          if (verdict.allowed) admitted++;
        }
      };
      await Promise.all(Array.from({ length: FLOOD_CONCURRENCY }, worker));
      return admitted;
    };
    const reachRequests = FLOOD_LIMIT + FLOOD_REACH_EXTRA;
    const start = await redisCommands(admin);
    const reachAdmitted = await send(reachRequests);
    const reached = await redisCommands(admin);
    const overAdmitted = await send(FLOOD_OVER);
    const end = await redisCommands(admin);
    return {
      denyCache,
      reachRequests,
      reachAdmitted,
      reachCommands: reached - start,
      overRequests: FLOOD_OVER,
      overAdmitted,
      overCommands: end - reached,
      cacheHits: await cacheHits(runtime),
    };
  } finally {
    runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
