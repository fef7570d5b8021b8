import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { BackupReport } from "./backup-file";
import type { BackupAnswer, BackupRequest } from "./backup-worker";

/** BUNDLED_WORKER is the worker's file beside dist/server.mjs (scripts/build-server.mjs). */
const BUNDLED_WORKER = "backup-worker.mjs";

/** besideThisModule is the path of `name` in this module's directory (dist/ once bundled). */
function besideThisModule(name: string): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), name);
}

/**
 * workerEntry finds the worker's code: beside the bundle that runs (dist/), or, running from
 * source (tests, `npm run dev`), the TypeScript file, imported through tsx's API (a worker
 * does not inherit the loader the main thread runs TypeScript with). Paths are built at run
 * time, never as `new URL("…", import.meta.url)`, which bundlers resolve at build time: Next
 * bundles this module too (through the runtime) but never starts a backup.
 */
function workerEntry(): { entry: string; eval: boolean } {
  if (!import.meta.url.endsWith(".ts"))
    return { entry: besideThisModule(BUNDLED_WORKER), eval: false };
  const source = JSON.stringify(pathToFileURL(besideThisModule("backup-worker.ts")).href);
  return {
    entry: `import("tsx/esm/api").then((tsx) => tsx.tsImport(${source}, ${source}))`,
    eval: true,
  };
}

/**
 * writeBackupInWorker runs writeBackup (see backup-file.ts) in a worker thread, with its own
 * read-only connection, so the calling thread's event loop never waits on the copy. It rejects
 * with the worker's error (its `routine` set: see isRoutineFailure), and ends the worker when `signal` aborts (the temporary file it was
 * writing stays, hidden, until the schedule's next start clears it).
 */
export function writeBackupInWorker(
  request: BackupRequest,
  signal?: AbortSignal,
): Promise<BackupReport> {
  const { entry, eval: isCode } = workerEntry();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const worker = new Worker(entry, { workerData: request, eval: isCode });
    let answered = false;
    const onAbort = () => {
      void worker.terminate();
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (answer: BackupAnswer) => {
      answered = true;
      if (answer.ok) resolve(answer.report);
      else {
        const cause = answer.cause === undefined ? undefined : new Error(answer.cause);
        const failure = Object.assign(new Error(answer.message, { cause }), {
          routine: answer.routine,
        });
        if (answer.stack !== undefined) failure.stack = answer.stack;
        reject(failure);
      }
    });
    worker.once("error", (error) => {
      answered = true;
      const failure = new Error(`The backup worker failed: ${error.message}`, { cause: error });
      reject(Object.assign(failure, { routine: false }));
    });
    worker.once("exit", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (!answered) {
        const failure = new Error(`The backup worker exited with ${code} before answering`);
        reject(Object.assign(failure, { routine: false }));
      }
    });
  });
}
