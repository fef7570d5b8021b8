import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { insertCustomer, updateCustomerRow } from "@/db/queries/customers";
import { getPlanBySlug, insertPlan } from "@/db/queries/plans";
import type { Logger } from "@/lib/log";
import { generateApiKey, hashApiKey } from "@/lib/policy/api-key";
import { createRuntime, type RedisOptions, type Runtime, setRuntime } from "@/lib/runtime";
import type { AnyLimitRow } from "@/lib/vocabulary";
import { FakeClock } from "./fake-clock";

/** START_MS is where every test runtime's clock starts: 2025-01-01T00:00:00Z, in ms. */
export const START_MS = Date.UTC(2025, 0, 1);

/** TestCustomer is a customer a test created, with the key it calls the API with. */
export interface TestCustomer {
  id: number;
  key: string;
}

/** TestRuntime is a process runtime on a temporary SQLite file, driven by a fake clock. */
export interface TestRuntime {
  runtime: Runtime;
  clock: FakeClock;
  /** databasePath is the runtime's SQLite file (another runtime may open it too). */
  databasePath: string;
  /** lines is what the runtime logged. */
  lines: string[];
  /** demoKey is the seeded demo customer's key, captured from the log (free plan). */
  demoKey: string;
  /** demoId is the seeded demo customer's id. */
  demoId: number;
  /** addPlan stores a plan with the given limits and returns its id (reloads the policy). */
  addPlan(slug: string, limits: AnyLimitRow[]): number;
  /** addCustomer stores an active customer on the plan with that slug (reloads the policy). */
  addCustomer(planSlug: string, name?: string): TestCustomer;
  /** suspend marks a customer suspended (reloads the policy). */
  suspend(customerId: number): void;
  /** planId returns the id of the plan with that slug. */
  planId(slug: string): number;
  /** cleanup closes the runtime, unsets it and deletes its files. */
  cleanup(): void;
}

const DEMO_KEY_LINE = /Demo customer API key \(shown once, stored hashed\): (\S+)/;

/**
 * createTestRuntime builds a runtime on a fresh SQLite file under the OS's temporary directory,
 * seeded with the demo plans, and makes it the process's runtime so route handlers use it.
 * With `redisOnTestClock`, its Redis decisions use the fake clock instead of the server's.
 */
export function createTestRuntime(
  options: { redis?: RedisOptions; redisOnTestClock?: boolean } = {},
): TestRuntime {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-test-"));
  const clock = new FakeClock(START_MS);
  const lines: string[] = [];
  const log: Logger = {
    info: (message) => lines.push(message),
    warn: (message) => lines.push(message),
    error: (message) => lines.push(message),
  };
  const databasePath = path.join(dir, "test.db");
  const runtime = createRuntime({
    databasePath,
    clock,
    adminPassword: "test-password",
    log,
    // With redisOnTestClock, Redis decides at the fake clock's time too (no expiry then).
    redis:
      options.redis && options.redisOnTestClock
        ? { ...options.redis, decisionClock: clock }
        : options.redis,
    // Service tokens' last uses are written when a test flushes them, never on a timer.
    tokenUseFlushIntervalMs: 0,
    // Tests flush, claim and fold by calling them, on the fake clock: no timers run.
    usage: { timers: false },
  });
  setRuntime(runtime);
  const demoKey = lines.map((line) => DEMO_KEY_LINE.exec(line)?.[1]).find(Boolean);
  if (!demoKey) throw new Error(`The seed logged no demo key: ${lines.join(" | ")}`);
  const demo = runtime.policy.snapshot.byKeyHash.get(hashApiKey(demoKey));
  if (!demo) throw new Error("The demo customer is not in the policy");

  const planId = (slug: string): number => {
    const plan = getPlanBySlug(runtime.db, slug);
    if (!plan) throw new Error(`No plan ${slug}`);
    return plan.id;
  };

  return {
    runtime,
    clock,
    databasePath,
    lines,
    demoKey,
    demoId: demo.id,
    planId,
    addPlan(slug, limits) {
      const plan = insertPlan(
        runtime.db,
        { slug, name: slug, description: "", limits },
        clock.now(),
      );
      runtime.policy.applyEdit();
      return plan.id;
    },
    addCustomer(planSlug, name = "Test customer") {
      const apiKey = generateApiKey();
      const id = insertCustomer(
        runtime.db,
        {
          name,
          planId: planId(planSlug),
          apiKeyHash: apiKey.hash,
          apiKeyPrefix: apiKey.prefix,
        },
        clock.now(),
      );
      runtime.policy.applyEdit();
      return { id, key: apiKey.key };
    },
    suspend(customerId) {
      updateCustomerRow(runtime.db, customerId, { status: "suspended" }, clock.now());
      runtime.policy.applyEdit();
    },
    cleanup() {
      setRuntime(undefined);
      runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * openTestRuntime opens another runtime on an existing test database (a restart, or a second
 * instance), on the given clock, with no timers; the caller closes it. It does not become the
 * process's runtime.
 */
export function openTestRuntime(
  databasePath: string,
  clock: FakeClock,
  options: { redis?: RedisOptions; log?: Logger } = {},
): Runtime {
  return createRuntime({
    databasePath,
    clock,
    adminPassword: "test-password",
    log: options.log ?? { info() {}, warn() {}, error() {} },
    redis: options.redis,
    usage: { timers: false },
  });
}

/** api builds a request to the API with an optional Bearer key and body (a body means POST). */
export function api(
  pathname: string,
  options: { method?: string; key?: string; body?: unknown; rawBody?: string } = {},
): Request {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  return new Request(`http://test${pathname}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
}

/** idParams is the route context of an `[id]` route. */
export function idParams(id: number | string): { params: Promise<{ id: string }> } {
  return { params: Promise.resolve({ id: String(id) }) };
}
