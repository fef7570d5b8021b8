import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/redis-server";
import {
  BUILD_TIMEOUT_MS,
  type RatekeeperServer,
  startRatekeeper,
} from "./support/ratekeeper-server";

/** APP_TIMEOUT_MS bounds a test that starts the example app in its own Node process. */
const APP_TIMEOUT_MS = 30_000;

const run = promisify(execFile);
const root = process.cwd();
const sdk = path.join(root, "sdk");
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const version = JSON.parse(readFileSync(path.join(sdk, "package.json"), "utf8")).version;
/** TARBALL is what `npm run sdk:pack` writes, and what the docs tell a project to install. */
const TARBALL = path.join("dist", `ratekeeper-client-${version}.tgz`);

let dir: string;
let installed: string;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

// The package as a user gets it: packed by the one documented command, installed from the
// tarball into a project of its own, offline (it has no dependencies).
beforeAll(async () => {
  rmSync(path.join(root, TARBALL), { force: true });
  const packed = await run(npm, ["run", "--silent", "sdk:pack"], { cwd: root });
  expect(packed.stdout).toContain(`Packed @ratekeeper/client@${version}: ${TARBALL}`);
  dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-sdk-"));
  await run(npm, ["init", "-y"], { cwd: dir });
  await run(
    npm,
    [
      "install",
      path.join(root, TARBALL),
      "--offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
    ],
    { cwd: dir },
  );
  installed = path.join(dir, "node_modules", "@ratekeeper", "client");
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("@ratekeeper/client as published", () => {
  it("is packed by npm run sdk:pack into dist/, and installs from the tarball by its name", () => {
    expect(existsSync(path.join(root, TARBALL))).toBe(true);
    const project = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(project.dependencies["@ratekeeper/client"]).toMatch(/ratekeeper-client-.*\.tgz$/);
    expect(JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")).version).toBe(
      version,
    );
  });

  it("is an ES module package whose exports point at the build, types first", () => {
    const manifest = JSON.parse(readFileSync(path.join(sdk, "package.json"), "utf8"));
    expect(manifest.name).toBe("@ratekeeper/client");
    expect(manifest.type).toBe("module");
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(Object.keys(manifest.exports["."])).toEqual(["types", "default"]);
    for (const file of [manifest.exports["."].types, manifest.exports["."].default]) {
      expect(filesUnder(installed).map((f) => path.relative(installed, f))).toContain(
        path.normalize(file),
      );
    }
  });

  it("loads by its name in plain Node and exports the client", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import("@ratekeeper/client");
         const rk = m.createRatekeeper({ url: "http://127.0.0.1:9", token: "rks_x" });
         console.log(JSON.stringify({ exports: Object.keys(m).sort(), methods: Object.keys(rk).sort() }));`,
      ],
      { cwd: dir },
    );
    expect(JSON.parse(stdout)).toEqual({
      exports: [
        "CLASS_NAME_PATTERN",
        "COST_RULE",
        "DECISION_REASONS",
        "DEFAULT_CLASSES",
        "DEFAULT_TIMEOUT_MS",
        "MAX_BATCH",
        "MAX_COST",
        "MAX_KEY_LENGTH",
        "MISCONFIGURED_LOG_INTERVAL_MS",
        "OPERATIONS",
        "RatekeeperError",
        "SERVICE_TOKEN_SCOPES",
        "VERIFY_TIMEOUT_MS",
        "bearerKey",
        "createRatekeeper",
        "operationOf",
      ],
      methods: [
        "decide",
        "decideBatch",
        "decisionOf",
        "express",
        "hono",
        "verify",
        "withRateLimit",
      ],
    });
  });

  it("uses nothing of Node: no node: imports, require, process or Buffer in what it ships", () => {
    const shipped = filesUnder(path.join(installed, "dist")).filter((f) => f.endsWith(".js"));
    expect(shipped.length).toBeGreaterThan(5);
    for (const file of shipped) {
      const code = readFileSync(file, "utf8");
      expect(code, file).not.toMatch(/from\s+["']node:|require\(|\bprocess\.|\bBuffer\b/);
      // Every import is one of its own files.
      for (const [, specifier] of code.matchAll(/from\s+["']([^"']+)["']/g)) {
        expect(specifier, file).toMatch(/^\.\.?\/.*\.js$/);
      }
    }
  });

  it("type-checks a user's code against its declarations (NodeNext resolution, no Node types)", async () => {
    writeFileSync(
      path.join(dir, "use.ts"),
      `import { createRatekeeper, type DecideResult, type Decision, type DecisionRequest } from "@ratekeeper/client";
       const rk = createRatekeeper({ url: "http://127.0.0.1:9", token: "rks_x", onUnavailable: "closed", onMisconfigured: "refuse" });
       const request: DecisionRequest = { key: "rk_a", operation: "read", cost: 2 };
       const result: Promise<DecideResult> = rk.decide(request);
       export async function check(): Promise<string> {
         const token = await rk.verify({ scopes: ["peek"], timeoutMs: 1000 });
         const d = await rk.decide(request);
         return d.reason === "ratekeeper_misconfigured" ? d.error.message : token.name + token.prefix;
       }
       // @ts-expect-error: onMisconfigured is "refuse" or "admit"
       createRatekeeper({ url: "http://127.0.0.1:9", token: "rks_x", onMisconfigured: "open" });
       export const handler = rk.withRateLimit((req: Request) => new Response(req.url));
       export function reason(d: Decision): string { return d.reason; }
       void result;
       // Any class name type-checks (the server knows which exist)...
       void rk.decide({ key: "rk_a", operation: "exports" });
       // @ts-expect-error: ...but an operation is a class's name, never a number
       void rk.decide({ key: "rk_a", operation: 7 });
       // @ts-expect-error: a key and a customer id at once
       void rk.decide({ key: "rk_a", customerId: 1, operation: "read" });
      `,
    );
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2022", "DOM"],
          types: [],
          strict: true,
          noEmit: true,
        },
        files: ["use.ts"],
      }),
    );
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    await expect(run(process.execPath, [tsc, "-p", dir], { cwd: dir })).resolves.toBeDefined();
  }, 60_000);
});

/** EXAMPLE_PAGE is the page whose "From any service" example these tests run as written. */
const EXAMPLE_PAGE = path.join("docs", "protecting-apis.md");

/** exampleBlock is EXAMPLE_PAGE's fenced code block that starts with `first` (its first line). */
function exampleBlock(first: string): string {
  const page = readFileSync(path.join(root, EXAMPLE_PAGE), "utf8");
  for (const [, body] of page.matchAll(/```\w*\n([\s\S]*?)```/g)) {
    if (body?.startsWith(first)) return body;
  }
  throw new Error(`${EXAMPLE_PAGE} has no code block starting with ${first}`);
}

/** App is the docs' orders.mjs running: its output so far, and how it ended. */
interface App {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function startOrders(env: Record<string, string>): App {
  const child = spawn(process.execPath, ["orders.mjs"], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, output: () => output, exited };
}

async function until(app: App, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!pattern.test(app.output())) {
    if (app.child.exitCode !== null) throw new Error(`orders.mjs exited:\n${app.output()}`);
    if (Date.now() > deadline) throw new Error(`orders.mjs said no ${pattern}:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the From any service example of docs/protecting-apis.md, as written", () => {
  let server: RatekeeperServer;
  const apps: App[] = [];
  beforeAll(async () => {
    server = await startRatekeeper();
    // orders.mjs, verbatim; Express comes from this repository (the docs install it from npm).
    writeFileSync(path.join(dir, "orders.mjs"), exampleBlock("// orders.mjs"));
    symlinkSync(
      path.join(root, "node_modules", "express"),
      path.join(dir, "node_modules", "express"),
    );
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    for (const app of apps) app.child.kill("SIGKILL");
    await server?.stop();
  });

  it("installs the tarball that npm run sdk:pack writes", () => {
    const install = exampleBlock("npm run sdk:pack");
    expect(install).toContain(`npm install express /path/to/ratekeeper/${TARBALL}`);
  });

  it(
    "starts after verify(), takes the customer's key, sets the RateLimit fields and answers 429 past the plan",
    async () => {
      const plan = await server.admin.createPlan([
        { operation: "read", count: 2, periodMs: 3_600_000 },
        { operation: "write", count: 1, periodMs: 3_600_000 },
      ]);
      const customer = await server.admin.createCustomer(plan.id);
      const { token } = await server.admin.createServiceToken();
      const port = await freePort();
      const app = startOrders({
        RATEKEEPER_URL: server.url,
        RATEKEEPER_TOKEN: token,
        PORT: String(port),
      });
      apps.push(app);
      await until(app, /Orders API on http:\/\/localhost:\d+/);
      expect(app.output()).toMatch(/Ratekeeper accepts the token "Service-[\w-]+" \(decide\)/);

      const get = () =>
        fetch(`http://127.0.0.1:${port}/orders`, {
          headers: { authorization: `Bearer ${customer.apiKey}` },
        });
      for (const remaining of [1, 0]) {
        const res = await get();
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ orders: [] });
        expect(res.headers.get("ratelimit")).toMatch(
          new RegExp(`^"read-2-per-1h";r=${remaining};t=\\d+$`),
        );
      }
      const refused = await get();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    },
    APP_TIMEOUT_MS,
  );

  it(
    "stops at start, saying why, with a revoked token",
    async () => {
      const revoked = await server.admin.createServiceToken();
      expect(
        (await server.admin.request("DELETE", `/api/admin/service-tokens/${revoked.id}`)).status,
      ).toBe(204);
      const app = startOrders({
        RATEKEEPER_URL: server.url,
        RATEKEEPER_TOKEN: revoked.token,
        PORT: String(await freePort()),
      });
      apps.push(app);
      expect(await app.exited).toBe(1);
      expect(app.output()).toMatch(
        /^Cannot start: Ratekeeper refused this service's token \(it was revoked\) on GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/service-token: 401 Revoked service token/m,
      );
      expect(app.output()).not.toContain("Orders API on");
    },
    APP_TIMEOUT_MS,
  );
});
