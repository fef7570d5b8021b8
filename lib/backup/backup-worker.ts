// The worker thread a running server takes its scheduled backups in (see backup-in-worker.ts):
// the copy and its integrity check are synchronous SQLite calls of a second or more on a large
// database, and the server's event loop must go on deciding meanwhile. `npm run build` bundles
// this file into dist/backup-worker.mjs.
import { parentPort, workerData } from "node:worker_threads";
import { type BackupOptions, writeBackup } from "./backup-file";
import { isRoutineFailure } from "./backup-report";

/** BackupRequest is what the worker is asked: copy `source` to `target`. */
export interface BackupRequest extends BackupOptions {
  source: string;
  target: string;
}

/**
 * BackupAnswer is the worker's one message: the report, or the error's message and cause, whether
 * it is routine (isRoutineFailure), and the stack of one that is not.
 */
export type BackupAnswer =
  | { ok: true; report: ReturnType<typeof writeBackup> }
  | { ok: false; message: string; cause?: string; routine: boolean; stack?: string };

if (parentPort) {
  const { source, target, overwrite } = workerData as BackupRequest;
  let answer: BackupAnswer;
  try {
    answer = { ok: true, report: writeBackup(source, target, { overwrite }) };
  } catch (error) {
    const { message, cause, stack } = error as Error;
    const routine = isRoutineFailure(error);
    answer = {
      ok: false,
      message,
      cause: cause instanceof Error ? cause.message : undefined,
      routine,
      stack: routine ? undefined : stack,
    };
  }
  parentPort.postMessage(answer);
}
