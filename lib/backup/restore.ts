import { existsSync, linkSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import {
  type DatabaseCounts,
  integrityProblems,
  type MigrationLevel,
  migrationLevel,
  openExistingDatabase,
  settleDatabase,
} from "@/db/maintenance";
import {
  checkWritableDirectory,
  copyChecked,
  databaseFileAt,
  describeDatabaseFile,
  publish,
  removeTemp,
} from "./backup-file";
import { utcStamp } from "./backup-names";

/** RestoreReport says what a restore did: the database written, what it holds, what it replaced. */
export interface RestoreReport {
  /** database is the restored database's absolute path. */
  database: string;
  bytes: number;
  migrations: MigrationLevel;
  counts: DatabaseCounts;
  /**
   * keptAs is where the database the restore replaced now lives (with its -wal, if it could not
   * be folded in), undefined when there was none.
   */
  keptAs?: string;
}

/**
 * checkBackup opens a backup read-only and throws an Error unless it is a sound Ratekeeper
 * database this version can open: it passes `PRAGMA integrity_check`, its migrations are this
 * code's, in order, and none is newer (an older schema is fine: the server migrates it on start).
 */
export function checkBackup(backup: string): { migrations: MigrationLevel } {
  const found = statSync(backup, { throwIfNoEntry: false });
  if (found?.isDirectory()) throw new Error(`${backup} is a directory: name a backup file in it`);
  if (!found?.isFile()) throw new Error(`No backup at ${backup}`);
  const sqlite = openExistingDatabase(backup);
  try {
    const problems = integrityProblems(sqlite);
    if (problems.length > 0) {
      throw new Error(
        `${backup} failed PRAGMA integrity_check, so it is not restored: ${problems.slice(0, 5).join("; ")}`,
      );
    }
    const migrations = migrationLevel(sqlite);
    if (migrations.foreign !== null) {
      throw new Error(
        `${backup} is not a database of this Ratekeeper: its ${migrations.foreign}, so the server could not migrate it. It is not restored`,
      );
    }
    if (migrations.newer) {
      throw new Error(
        `${backup} was written by a newer Ratekeeper (its schema has migrations this version does not know): restore it with that version or a later one`,
      );
    }
    return { migrations };
  } finally {
    sqlite.close();
  }
}

/**
 * restoreBackup makes the database at `database` a copy of `backup`, for a server started
 * after it. It checks the backup first (checkBackup) and refuses while any process has the
 * database open (a running server: stop it first). The database it replaces is not deleted:
 * its write-ahead log is folded into it and it is kept as `<database>.replaced-<UTC time>`;
 * stale -wal and -shm files never meet the restored copy. It refuses a backup that is one of the
 * database's own files. `nowMs` stamps the kept file's name.
 */
export function restoreBackup(backup: string, database: string, nowMs: number): RestoreReport {
  const part = databaseFileAt(backup, database);
  if (part !== undefined) {
    throw new Error(
      `${backup} ${describeDatabaseFile(part)} (DATABASE_PATH): name a backup to restore it from`,
    );
  }
  checkBackup(backup);
  const target = path.resolve(database);
  const dir = path.dirname(target);
  mkdirSync(dir, { recursive: true });
  checkWritableDirectory(dir);
  const current = statSync(target, { throwIfNoEntry: false });
  if (current?.isDirectory()) throw new Error(`${database} is a directory`);
  // Settled, an idle database's log is folded into its main file: the file alone is whole.
  if (current && settleDatabase(target) === "in-use") {
    throw new Error(
      `${database} is open in another process (a running server?): stop it, then restore`,
    );
  }
  const copy = copyChecked(backup, target);
  let keptAs: string | undefined;
  try {
    if (current) keptAs = setAside(target, nowMs);
    // A -wal or -shm still there (SQLite could not read the replaced database) belongs to it,
    // never to the copy: SQLite would replay a stale log into the restored file.
    for (const suffix of ["-wal", "-shm"]) {
      const leftover = statSync(`${target}${suffix}`, { throwIfNoEntry: false });
      if (leftover) {
        // An empty log holds nothing of the replaced database: not worth keeping beside it.
        if (keptAs && suffix === "-wal" && leftover.size > 0)
          renameSync(`${target}${suffix}`, `${keptAs}${suffix}`);
        else rmSync(`${target}${suffix}`, { force: true });
      }
    }
    publish(copy.temp, target, true);
  } catch (error) {
    removeTemp(copy.temp);
    throw error;
  }
  const { bytes, migrations, counts } = copy;
  return { database: target, bytes, migrations, counts, keptAs };
}

/**
 * setAside keeps the database at `target` under a new name before it is replaced, by a hard
 * link, so `target` is never missing (a server started meanwhile would create an empty
 * database there).
 */
function setAside(target: string, nowMs: number): string {
  const keptAs = `${target}.replaced-${utcStamp(nowMs)}`;
  if (existsSync(keptAs)) throw new Error(`${keptAs} exists: move it away, then restore`);
  try {
    linkSync(target, keptAs);
  } catch {
    // No hard links on this file system: move it, and `target` is missing until the publish.
    renameSync(target, keptAs);
  }
  return keptAs;
}
