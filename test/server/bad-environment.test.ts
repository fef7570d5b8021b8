// The server entry with a bad environment, as an operator starts it: what they read.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

/** startServer runs the server entry (through tsx) with `env` added, until it exits. */
function startServer(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: process.cwd(),
      env: { ...process.env, NODE_ENV: "test", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the server entry with a bad environment", () => {
  // Regression: a bad RATEKEEPER_DEMO printed a stack trace reading "RATEKEEPER_DEMO:
  // RATEKEEPER_DEMO must be …".
  it("stops with exit status 1 and one line per bad variable, without a stack trace", async () => {
    const { code, stdout, stderr } = await startServer({
      RATEKEEPER_DEMO: "maybe",
      GATEWAY_TIMEOUT_MS: "soon",
    });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toEqual([
      "[ratekeeper] Cannot start: RATEKEEPER_DEMO must be on (a new database gets a demo customer, and /api/v1/items answers) or off (a production install: neither)",
      "[ratekeeper] Cannot start: GATEWAY_TIMEOUT_MS must be a whole number of milliseconds",
    ]);
  }, 30_000);
});
