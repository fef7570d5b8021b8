import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { freePort } from "../../test/support/redis-server";

/** Instance is one server process (`npm start`'s entry) the spec started, with everything it printed. */
export interface Instance {
  name: string;
  port: number;
  baseURL: string;
  /** log is the process's stdout and stderr so far, interleaved as they arrived. */
  log(): string;
  /** count is how many times `text` appears in the log. */
  count(text: string): number;
  /** exitCode is null while the process runs. */
  exitCode(): number | null;
  /**
   * signal sends `signal` to the process (SIGSTOP freezes it, SIGCONT resumes it: a control
   * plane that does nothing, without being stopped).
   */
  signal(signal: NodeJS.Signals): void;
  /** stop kills the process (and its children) and waits for it to exit. */
  stop(): Promise<void>;
}

/** InstanceOptions: the app's environment (on top of the spec's own) and how long to wait. */
export interface InstanceOptions {
  name: string;
  env: Record<string, string>;
  /** startTimeoutMs bounds the wait for /api/health (30 s by default). */
  startTimeoutMs?: number;
  /** cwd is the process's working directory (the repository's by default). */
  cwd?: string;
  /**
   * until is what the start waits for: "ready" (the default), /api/health answering 200; or
   * "listening", any answer (an edge that has no policy yet answers 503).
   */
  until?: "ready" | "listening";
}

const SERVER_ENTRY = path.join(process.cwd(), "dist", "server.mjs");

/** tail returns the last `lines` lines of a log, for error messages. */
export function tail(text: string, lines = 40): string {
  return text.split("\n").slice(-lines).join("\n");
}

/**
 * startInstance runs the server entry (dist/server.mjs) on a free loopback port with the build the suite uses
 * (NEXT_DIST_DIR, ".next" by default) and resolves once GET /api/health answers 200 (or at all,
 * with `until: "listening"`). It throws,
 * with the end of the process's log, when the process exits or does not answer in time; the
 * process is killed then.
 */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: options.cwd ?? process.cwd(),
    env: {
      ...process.env,
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so stop() also ends anything the server spawns.
    detached: true,
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  let spawnError: Error | undefined;
  child.once("error", (error) => {
    spawnError = error;
  });

  const instance: Instance = {
    name: options.name,
    port,
    baseURL,
    log: () => output,
    count: (text) => output.split(text).length - 1,
    exitCode: () => child.exitCode ?? (child.signalCode === null ? null : -1),
    signal: (signal) => {
      child.kill(signal);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      const exited = once(child, "exit");
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      await exited;
    },
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  let failure: string | undefined;
  for (;;) {
    if (spawnError) failure = `could not spawn the server: ${spawnError.message}`;
    else if (instance.exitCode() !== null) failure = `exited with ${instance.exitCode()}`;
    if (failure) break;
    try {
      const res = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200 || options.until === "listening") return instance;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      failure = "did not answer /api/health in time";
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await instance.stop();
  throw new Error(`instance ${options.name} ${failure}; its log ends with:\n${tail(output)}`);
}
