import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import path from "node:path";
import { tail } from "./instances";

const APP = path.join(process.cwd(), "e2e", "support", "express-app.mjs");
const SDK_BUILD = path.join(process.cwd(), "sdk", "dist", "index.js");
const START_TIMEOUT_MS = 15_000;

/** ExpressApp is one Express process (e2e/support/express-app.mjs) using the built SDK. */
export interface ExpressApp {
  name: string;
  url: string;
  /** log is everything the process printed so far. */
  log(): string;
  /** stop kills the process and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * startExpressApp spawns an Express 5 app that protects /api with @ratekeeper/client (built, from
 * sdk/dist) on a free loopback port, and resolves once it prints that it listens; it rejects,
 * with the end of its output, if it exits or stays silent for 15 s.
 */
export async function startExpressApp(options: {
  name: string;
  env: Record<string, string>;
}): Promise<ExpressApp> {
  if (!existsSync(SDK_BUILD)) {
    throw new Error("sdk/dist is missing: run npm run build (or npm run sdk:build) first");
  }
  const child: ChildProcess = spawn(process.execPath, [APP], {
    env: { ...process.env, APP_NAME: options.name, PORT: "0", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${options.name} did not start in time:\n${tail(output)}`)),
      START_TIMEOUT_MS,
    );
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited with ${code}:\n${tail(output)}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  };
  try {
    return { name: options.name, url: await listening, log: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
