import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * buildIfMissing runs `next build` when the build directory (NEXT_DIST_DIR, else .next) has no
 * production build (BUILD_ID), or when the build predates the benchmark's twin route, saying
 * why; otherwise the build is used as it is (delete it to rebuild after changing the app).
 */
export function buildIfMissing(root: string, requiredRoute: string): void {
  const distDir = process.env.NEXT_DIST_DIR ?? ".next";
  const dist = path.join(root, distDir);
  let reason: string | undefined;
  if (!existsSync(path.join(dist, "BUILD_ID"))) {
    reason = `there is no production build (${distDir}/BUILD_ID is missing)`;
  } else {
    const manifest = path.join(dist, "app-path-routes-manifest.json");
    const routes = existsSync(manifest) ? readFileSync(manifest, "utf8") : "";
    if (!routes.includes(`"${requiredRoute}"`)) {
      reason = `the production build in ${distDir} predates ${requiredRoute}`;
    }
  }
  if (reason === undefined && !existsSync(path.join(root, "dist", "server.mjs"))) {
    reason = "the server entry is not built (dist/server.mjs is missing)";
  }
  if (reason === undefined) return;
  console.log(`Running npm run build first: ${reason}.`);
  const result = spawnSync("npm", ["run", "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

/** freePort asks the OS for a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** NextServer is a running server (`npm start`'s entry, Next behind it): its base URL, its output so far, and how to stop it. */
export interface NextServer {
  url: string;
  /** pid is the server process's id (its CPU time can be read in /proc). */
  pid: number;
  output(): string;
  /** stop sends SIGTERM to the server's process group at once, SIGKILL if it lingers. */
  stop(): Promise<void>;
}

/**
 * startNext starts the server entry (dist/server.mjs) on 127.0.0.1 and a free port, in its own process group, with
 * `env` added to the environment (in `cwd`, the repository by default: an edge runs elsewhere;
 * `nodeArgs` before the entry, such as `--cpu-prof`),
 * and resolves once GET /api/metrics answers 200. It stops the server and rejects if the server
 * exits or does not answer within 30 s.
 */
export async function startNext(
  root: string,
  env: Record<string, string>,
  cwd = root,
  nodeArgs: string[] = [],
): Promise<NextServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, "dist", "server.mjs")], {
    cwd,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      HOST: "127.0.0.1",
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  void exited.then(() => (running = false));

  const signal = (name: NodeJS.Signals) => {
    // The negative pid names the group: the server's own children go with it.
    if (running && child.pid !== undefined) {
      try {
        process.kill(-child.pid, name);
      } catch {
        // Already gone.
      }
    }
  };
  const server: NextServer = {
    url,
    pid: child.pid ?? 0,
    output: () => output,
    async stop() {
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!running) break;
    try {
      if ((await fetch(`${url}/api/metrics`)).status === 200) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop();
  throw new Error(`the server did not answer on ${url}:\n${output}`);
}
