import { execFile } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = process.cwd();
const sdk = path.join(root, "sdk");
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");

let dir: string;
let installed: string;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

// The package as a user installs it: its package.json and its build, under node_modules.
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-sdk-"));
  installed = path.join(dir, "node_modules", "@ratekeeper", "client");
  mkdirSync(installed, { recursive: true });
  cpSync(path.join(sdk, "package.json"), path.join(installed, "package.json"));
  await run(process.execPath, [
    tsc,
    "-p",
    path.join(sdk, "tsconfig.json"),
    "--outDir",
    path.join(installed, "dist"),
  ]);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("@ratekeeper/client as published", () => {
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
        "COST_RULE",
        "DECISION_REASONS",
        "DEFAULT_TIMEOUT_MS",
        "MAX_BATCH",
        "MAX_COST",
        "MAX_KEY_LENGTH",
        "OPERATIONS",
        "RatekeeperError",
        "bearerKey",
        "createRatekeeper",
        "operationOf",
      ],
      methods: ["decide", "decideBatch", "decisionOf", "express", "hono", "withRateLimit"],
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
       const rk = createRatekeeper({ url: "http://127.0.0.1:9", token: "rks_x", onUnavailable: "closed" });
       const request: DecisionRequest = { key: "rk_a", operation: "read", cost: 2 };
       const result: Promise<DecideResult> = rk.decide(request);
       export const handler = rk.withRateLimit((req: Request) => new Response(req.url));
       export function reason(d: Decision): string { return d.reason; }
       void result;
       // @ts-expect-error: an operation the API does not know
       void rk.decide({ key: "rk_a", operation: "delete" });
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
