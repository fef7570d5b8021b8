import { randomBytes } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  fsyncSync,
  linkSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import path from "node:path";
import {
  countRows,
  type DatabaseCounts,
  integrityProblems,
  type MigrationLevel,
  migrationLevel,
  openExistingDatabase,
  vacuumInto,
} from "@/db/maintenance";

/** BackupReport says what a backup wrote: where, how many bytes, and what the copy holds. */
export interface BackupReport {
  /** path is the backup's absolute path. */
  path: string;
  /** bytes is the backup's size in bytes. */
  bytes: number;
  migrations: MigrationLevel;
  counts: DatabaseCounts;
}

/** CheckedCopy is a consistent copy at a temporary path, checked sound, with what it holds. */
export interface CheckedCopy {
  temp: string;
  bytes: number;
  migrations: MigrationLevel;
  counts: DatabaseCounts;
}

/** tempPathFor names a hidden temporary file next to `target`, unique to this call. */
function tempPathFor(target: string): string {
  const name = `.${path.basename(target)}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  return path.join(path.dirname(target), name);
}

/** removeTemp deletes a temporary copy and any journal SQLite left beside it. */
export function removeTemp(temp: string): void {
  for (const suffix of ["", "-journal", "-wal", "-shm"])
    rmSync(`${temp}${suffix}`, { force: true });
}

/** syncPath flushes a file (or a directory's entries) to the disk; best effort for directories. */
export function syncPath(file: string, { directory = false } = {}): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    fsyncSync(fd);
  } catch (error) {
    if (!directory) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * checkWritableDirectory throws an Error saying why a file cannot be written in `dir`: it does
 * not exist, is not a directory, or this process may not write there.
 */
export function checkWritableDirectory(dir: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    throw new Error(`The directory ${dir} does not exist: create it first`);
  }
  if (!isDirectory) throw new Error(`${dir} is not a directory`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new Error(`Cannot write to the directory ${dir} (permission denied)`);
  }
}

/**
 * copyChecked copies the database at `source` to a temporary file next to `target` with
 * `VACUUM INTO` (one read transaction: the database as of one moment, whatever a server writes
 * meanwhile), then opens the copy and runs `PRAGMA integrity_check` on it, and syncs it to disk.
 * It throws an Error naming the problem, and leaves no temporary file behind, when anything fails.
 */
export function copyChecked(source: string, target: string): CheckedCopy {
  const temp = tempPathFor(target);
  try {
    const sqlite = openExistingDatabase(source);
    try {
      vacuumInto(sqlite, temp);
    } catch (cause) {
      throw new Error(`Could not copy ${source}: ${(cause as Error).message}`, { cause });
    } finally {
      sqlite.close();
    }
    const copy = openExistingDatabase(temp);
    let checked: Omit<CheckedCopy, "temp" | "bytes">;
    try {
      const problems = integrityProblems(copy);
      if (problems.length > 0) {
        throw new Error(
          `The copy of ${source} failed PRAGMA integrity_check: ${problems.slice(0, 5).join("; ")}`,
        );
      }
      checked = { migrations: migrationLevel(copy), counts: countRows(copy) };
    } finally {
      copy.close();
    }
    syncPath(temp);
    return { temp, bytes: statSync(temp).size, ...checked };
  } catch (error) {
    removeTemp(temp);
    throw error;
  }
}

/**
 * publish moves a finished temporary file to `target` in one step, so `target` is either absent
 * or whole: replacing an existing file only when `overwrite` is set (rename), otherwise failing
 * if one appeared meanwhile (a hard link, which never replaces). The directory is synced after.
 */
export function publish(temp: string, target: string, overwrite: boolean): void {
  if (overwrite) {
    renameSync(temp, target);
  } else {
    try {
      linkSync(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw new Error(`${target} appeared while the backup was written`);
      // A file system without hard links: the existence check before the copy must do.
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV") throw error;
      renameSync(temp, target);
    }
    rmSync(temp, { force: true });
  }
  syncPath(path.dirname(target), { directory: true });
}

/** BackupOptions: `overwrite` replaces an existing file at the target (refused otherwise). */
export interface BackupOptions {
  overwrite?: boolean;
}

/**
 * writeBackup writes a consistent copy of the Ratekeeper database at `source` to `target`, safe
 * while a server writes to it (see copyChecked), checked with `PRAGMA integrity_check`, and
 * published whole or not at all (a temporary file, then a rename). It refuses an existing
 * `target` unless `overwrite`, and throws an Error saying what is wrong: no database at
 * `source`, a directory that is missing or not writable, a copy that fails its check.
 */
export function writeBackup(
  source: string,
  target: string,
  options: BackupOptions = {},
): BackupReport {
  if (!statSync(source, { throwIfNoEntry: false })?.isFile()) {
    throw new Error(`No database at ${source}`);
  }
  const resolved = path.resolve(target);
  let exists: ReturnType<typeof statSync>;
  try {
    exists = statSync(resolved, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR: a file stands where a directory on the way should be.
    checkWritableDirectory(path.dirname(resolved));
    throw new Error(`Cannot write ${target}`);
  }
  if (exists?.isDirectory()) throw new Error(`${target} is a directory: name a file in it`);
  const part = databaseFileAt(resolved, source);
  if (part !== undefined)
    throw new Error(`${target} ${describeDatabaseFile(part)}: name another file`);
  checkWritableDirectory(path.dirname(resolved));
  if (exists && !options.overwrite) {
    throw new Error(`${target} exists: name a new file, or pass --force to replace it`);
  }
  const copy = copyChecked(source, resolved);
  try {
    publish(copy.temp, resolved, options.overwrite ?? false);
  } catch (error) {
    removeTemp(copy.temp);
    throw error;
  }
  const { bytes, migrations, counts } = copy;
  return { path: resolved, bytes, migrations, counts };
}

/** DATABASE_FILES are the suffixes of the files SQLite keeps a database in: the main file, its log, its shared memory, its rollback journal. */
const DATABASE_FILES = ["", "-wal", "-shm", "-journal"] as const;

/** DatabaseFile is one of the files a SQLite database lives in, by its suffix ("" for the main file). */
export type DatabaseFile = (typeof DATABASE_FILES)[number];

/**
 * databaseFileAt tells whether `file` is one of the files the database at `database` lives in
 * (the main file, or its -wal, -shm or -journal beside it), through symbolic links and hard
 * links: which one, or undefined for any other file. Writing over any of them corrupts the
 * database or loses its latest writes.
 */
export function databaseFileAt(file: string, database: string): DatabaseFile | undefined {
  const target = canonicalPath(file);
  const main = canonicalPath(database);
  const plain = path.resolve(database);
  for (const suffix of DATABASE_FILES) {
    if (target === `${main}${suffix}` || target === `${plain}${suffix}`) return suffix;
  }
  const stats = statSync(file, { throwIfNoEntry: false });
  if (stats?.isFile()) {
    for (const suffix of DATABASE_FILES) {
      const other = statSync(`${main}${suffix}`, { throwIfNoEntry: false });
      if (other && other.ino === stats.ino && other.dev === stats.dev) return suffix;
    }
  }
  return undefined;
}

/** describeDatabaseFile names what a database's file is, after its path: "is the database itself". */
export function describeDatabaseFile(part: DatabaseFile): string {
  switch (part) {
    case "":
      return "is the database itself";
    case "-wal":
      return "is the database's write-ahead log (its -wal file, which holds its latest writes)";
    case "-shm":
      return "is the database's shared-memory index (its -shm file)";
    case "-journal":
      return "is the database's rollback journal (its -journal file)";
  }
}

/**
 * canonicalPath is `file`'s absolute path with every symbolic link resolved, also for a file
 * that does not exist yet (through its directory's real path).
 */
function canonicalPath(file: string): string {
  const resolved = path.resolve(file);
  try {
    return realpathSync(resolved);
  } catch {
    try {
      return path.join(realpathSync(path.dirname(resolved)), path.basename(resolved));
    } catch {
      return resolved;
    }
  }
}
