import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { insertCustomer } from "../db/queries/customers";
import { insertPlan } from "../db/queries/plans";
import { createServiceToken } from "../lib/admin/service-tokens";
import { silentLogger } from "../lib/log";
import { generateApiKey } from "../lib/policy/api-key";
import { createRuntime } from "../lib/runtime";
import type { LimitRow } from "../lib/vocabulary";
import { freePort } from "./next-server";

/** BATCH_SIZE is the decisions per batch the bench sends: 100, one per customer. */
export const BATCH_SIZE = 100;

/** Fixture is what the bench seeded: a service token and the customers' keys. */
export interface Fixture {
  token: string;
  /** single is the customer of the single decisions (the data plane and the Next route). */
  single: string;
  /** gateway is the customer the gateway runs call as. */
  gateway: string;
  /** batch are BATCH_SIZE customers, one decision each per batch. */
  batch: string[];
}

// Two limits per operation, like a real plan (burst and sustained), that no run can reach.
const OPEN: LimitRow[] = [
  { operation: "read", count: 1_000_000, periodMs: 1_000 },
  { operation: "read", count: 1_000_000, periodMs: 60_000 },
  { operation: "write", count: 1_000_000, periodMs: 1_000 },
  { operation: "write", count: 1_000_000, periodMs: 60_000 },
];

/**
 * seed migrates the database file (as the server would), stores an open plan with the bench's
 * customers, and creates a service token with the decide scope through the operator service.
 */
export function seed(databasePath: string, adminPassword: string): Fixture {
  const runtime = createRuntime({
    databasePath,
    adminPassword,
    log: silentLogger,
    tokenUseFlushIntervalMs: 0,
  });
  try {
    const now = Date.now();
    const plan = insertPlan(
      runtime.db,
      { slug: "bench-open", name: "Bench open", description: "bench", limits: OPEN },
      now,
    );
    const customer = (name: string) => {
      const apiKey = generateApiKey();
      insertCustomer(
        runtime.db,
        { name, planId: plan.id, apiKeyHash: apiKey.hash, apiKeyPrefix: apiKey.prefix },
        now,
      );
      return apiKey.key;
    };
    const single = customer("single");
    const gateway = customer("gateway");
    const batch = Array.from({ length: BATCH_SIZE }, (_, i) => customer(`batch ${i}`));
    runtime.policy.applyEdit();
    const created = createServiceToken(runtime, "bench", { name: "bench", scopes: ["decide"] });
    if (!created.ok)
      throw new Error(`could not create the bench's service token: ${created.title}`);
    return { token: created.value.token, single, gateway, batch };
  } finally {
    runtime.close();
  }
}

/** Floor is a floor or upstream process of bench/decide-floors.ts. */
export interface Floor {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/** startFloor runs `bench/decide-floors.ts <kind> <port> [arg]` and resolves once it listens. */
export async function startFloor(root: string, kind: string, arg?: string): Promise<Floor> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "bench", "decide-floors.ts"), kind, String(port)].concat(
      arg === undefined ? [] : [arg],
    ),
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} did not start in 20 s`)), 20_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`${kind} exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
