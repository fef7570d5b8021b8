import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Instance, startInstance } from "../../../e2e/support/instances";

const ROOT = process.cwd();
/** ADMIN_PASSWORD is the operator password every instance these tests start is given. */
export const ADMIN_PASSWORD = "sdk-integration-password";
/** BUILD_TIMEOUT_MS bounds a `npm run build` the suite runs when there is no build: 10 minutes. */
export const BUILD_TIMEOUT_MS = 600_000;

function newestSourceMs(folders: string[]): number {
  let newest = 0;
  for (const folder of folders) {
    for (const entry of readdirSync(path.join(ROOT, folder), {
      recursive: true,
      withFileTypes: true,
    })) {
      if (entry.isFile() && entry.name.endsWith(".ts")) {
        newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status})`);
}

function build(): void {
  const distDir = process.env.NEXT_DIST_DIR ?? ".next";
  if (!existsSync(path.join(ROOT, distDir, "BUILD_ID"))) {
    console.log(`Running npm run build first: there is no production build in ${distDir}.`);
    run("npm", ["run", "build"]);
    return;
  }
  const entry = path.join(ROOT, "dist", "server.mjs");
  if (!existsSync(entry) || statSync(entry).mtimeMs < newestSourceMs(["server", "lib", "db"])) {
    run(process.execPath, ["scripts/build-server.mjs"]);
  }
}

const LOCK = path.join(ROOT, "dist", ".sdk-test-build.lock");

/**
 * ensureServerBuilt makes sure dist/server.mjs runs the current source: without a Next build it
 * runs `npm run build`; with one, it rebuilds the server entry alone (esbuild, about a second)
 * when any file under server/, lib/ or db/ is newer than it. The data plane answers before Next,
 * so Next's own build may be older. Test files run in parallel: one builds while the others wait
 * on a lock directory (taken atomically by mkdir).
 */
export async function ensureServerBuilt(): Promise<void> {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A lock older than a build can take was left by a killed run.
      if (Date.now() - statSync(LOCK).mtimeMs > BUILD_TIMEOUT_MS)
        rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline)
        throw new Error(`${LOCK} is still held; remove it if no build runs`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    build();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** LimitInput is a plan limit as the admin API takes it. */
export interface LimitInput {
  operation: "read" | "write";
  count: number;
  periodMs: number;
}

/** Admin is an operator's session on a running Ratekeeper, through its admin API. */
export interface Admin {
  request(method: string, path: string, body?: unknown): Promise<Response>;
  createPlan(limits: LimitInput[]): Promise<{ id: number; slug: string; name: string }>;
  createCustomer(planId: number): Promise<{ id: number; name: string; apiKey: string }>;
  createServiceToken(scopes?: string[]): Promise<{ id: number; token: string }>;
}

/** RatekeeperServer is a real Ratekeeper (the server entry, Next behind it) on a temporary database. */
export interface RatekeeperServer {
  url: string;
  /** databasePath is its SQLite file, for another instance to open (the scale-out tests). */
  databasePath: string;
  admin: Admin;
  instance: Instance;
  stop(): Promise<void>;
}

let counter = 0;
function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

async function expectStatus(response: Response, status: number): Promise<unknown> {
  const text = await response.text();
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  }
  return text ? JSON.parse(text) : null;
}

async function signIn(url: string): Promise<Admin> {
  const login = await fetch(`${url}/api/admin/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password: ADMIN_PASSWORD }),
  });
  await expectStatus(login, 200);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const request = (method: string, route: string, body?: unknown) =>
    fetch(`${url}${route}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    request,
    async createPlan(limits) {
      const name = unique("Plan");
      const body = await expectStatus(
        await request("POST", "/api/admin/plans", { slug: name.toLowerCase(), name, limits }),
        201,
      );
      return (body as { plan: { id: number; slug: string; name: string } }).plan;
    },
    async createCustomer(planId) {
      const body = (await expectStatus(
        await request("POST", "/api/admin/customers", { name: unique("Customer"), planId }),
        201,
      )) as { customer: { id: number; name: string }; apiKey: string };
      return { id: body.customer.id, name: body.customer.name, apiKey: body.apiKey };
    },
    async createServiceToken(scopes = ["decide"]) {
      const body = (await expectStatus(
        await request("POST", "/api/admin/service-tokens", { name: unique("Service"), scopes }),
        201,
      )) as { serviceToken: { id: number }; token: string };
      return { id: body.serviceToken.id, token: body.token };
    },
  };
}

/**
 * startRatekeeper runs the server entry (dist/server.mjs, see ensureServerBuilt) on a free
 * 127.0.0.1 port with a fresh temporary database (and `env` on top), and signs an operator in.
 */
export async function startRatekeeper(env: Record<string, string> = {}): Promise<RatekeeperServer> {
  await ensureServerBuilt();
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-sdk-it-"));
  const databasePath = path.join(dir, "ratekeeper.db");
  let instance: Instance;
  try {
    instance = await startInstance({
      name: "ratekeeper",
      env: { DATABASE_PATH: databasePath, ADMIN_PASSWORD, ...env },
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const stop = async () => {
    await instance.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const admin = await signIn(instance.baseURL);
    return { url: instance.baseURL, databasePath, admin, instance, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
