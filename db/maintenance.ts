import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { MIGRATIONS_FOLDER } from "./migrations-folder";

// What backups and restores ask of a database file, as SQL: open one that must exist (never
// migrated, never created), copy it consistently, check it, say how far its schema has come and
// what it holds, and tell whether another process has it open.

/** MigrationLevel is how far a database's schema has come, against the migrations of this code. */
export interface MigrationLevel {
  /** applied is how many migrations the database records. */
  applied: number;
  /** latest is the tag of the last one applied ("0006_dry_run_since_backfill"), null if none. */
  latest: string | null;
  /** known is how many migrations this version of the code has (drizzle/). */
  known: number;
  /**
   * newer is true when the database holds a migration this code does not know: it was written by
   * a newer Ratekeeper, and this one must not open it.
   */
  newer: boolean;
  /**
   * foreign names the first migration the database records that is not this code's at its
   * place (another hash or time: not a Ratekeeper schema, or one edited by hand), null when the
   * recorded migrations are this code's, in order (followed only by newer ones, if any). The
   * server cannot migrate a database with a foreign migration.
   */
  foreign: string | null;
}

/** DatabaseCounts are the rows an operator recognises a database by; null for a table it lacks. */
export interface DatabaseCounts {
  plans: number;
  customers: number;
  serviceTokens: number | null;
  auditEntries: number;
  /** lastAuditId is the newest audit entry's id (0 with none): ids count up from 1 with no gap. */
  lastAuditId: number;
  /** usageRows are the usage rollups' rows (minutes, hours and days), null before migration 0003. */
  usageRows: number | null;
}

interface JournalEntry {
  tag: string;
  when: number;
}

/** readJournal lists the committed migrations, oldest first, as drizzle-kit recorded them. */
function readJournal(folder: string): JournalEntry[] {
  const text = readFileSync(path.join(folder, "meta", "_journal.json"), "utf8");
  return (JSON.parse(text) as { entries: JournalEntry[] }).entries;
}

/**
 * openExistingDatabase opens the SQLite file at `file` without creating it, migrating it or
 * changing its journal mode; `readonly` (the default) guarantees nothing is written to it. It
 * throws an Error naming the file when it cannot be opened, is not a SQLite database, is damaged
 * where its schema lies, or holds no Ratekeeper tables.
 */
export function openExistingDatabase(
  file: string,
  { readonly = true }: { readonly?: boolean } = {},
): Database.Database {
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { readonly, fileMustExist: true, timeout: 5_000 });
  } catch (cause) {
    throw new Error(`Cannot open the database ${file}: ${messageOf(cause)}`, { cause });
  }
  let tables: number;
  try {
    tables = (
      sqlite
        .prepare(
          "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('__drizzle_migrations', 'plans', 'customers', 'audit_log')",
        )
        .get() as { n: number }
    ).n;
  } catch (cause) {
    sqlite.close();
    const code = (cause as { code?: string }).code;
    if (code === "SQLITE_NOTADB") throw new Error(`${file} is not a SQLite database`, { cause });
    throw new Error(`${file} is damaged: ${messageOf(cause)}`, { cause });
  }
  if (tables !== 4) {
    sqlite.close();
    throw new Error(`${file} is not a Ratekeeper database: it holds no Ratekeeper tables`);
  }
  return sqlite;
}

/**
 * vacuumInto writes a consistent, compacted copy of the database to `file`, which must not
 * exist: one read transaction, so a copy taken while another process writes is the database as
 * of the moment it began, and that writer (in WAL mode) is never blocked. SQLite does not sync
 * the copy to disk; the caller does.
 */
export function vacuumInto(sqlite: Database.Database, file: string): void {
  sqlite.prepare("VACUUM INTO ?").run(file);
}

/**
 * integrityProblems runs `PRAGMA integrity_check`: the problems it finds (or the error it stops
 * on, for damage it cannot walk past), none for a sound file.
 */
export function integrityProblems(sqlite: Database.Database): string[] {
  let rows: { integrity_check: string }[];
  try {
    rows = sqlite.pragma("integrity_check") as { integrity_check: string }[];
  } catch (error) {
    return [messageOf(error)];
  }
  const problems = rows.map((row) => row.integrity_check);
  return problems.length === 1 && problems[0] === "ok" ? [] : problems;
}

/**
 * migrationLevel reads which migrations the database records, against the committed ones in
 * `folder` (drizzle/ by default): drizzle applies every migration newer than the last recorded.
 */
export function migrationLevel(
  sqlite: Database.Database,
  folder = MIGRATIONS_FOLDER,
): MigrationLevel {
  const journal = readJournal(folder);
  const foreign = foreignMigration(sqlite, journal, folder);
  const row = sqlite
    .prepare("SELECT count(*) AS applied, max(created_at) AS last FROM __drizzle_migrations")
    .get() as { applied: number; last: number | null };
  const last = row.last === null ? null : Number(row.last);
  const newest = journal.at(-1)?.when ?? 0;
  const newer = last !== null && last > newest;
  const latest =
    last === null ? null : (journal.find((entry) => entry.when === last)?.tag ?? "unknown");
  return { applied: row.applied, latest, known: journal.length, newer, foreign };
}

/**
 * foreignMigration compares the migrations a database records (in the order applied) with the
 * committed ones, by time and by drizzle's hash of the SQL file: a description of the first that
 * differs, or null when they are a prefix of the committed ones (newer ones after it aside).
 */
function foreignMigration(
  sqlite: Database.Database,
  journal: JournalEntry[],
  folder: string,
): string | null {
  const files = readMigrationFiles({ migrationsFolder: folder });
  const newest = journal.at(-1)?.when ?? 0;
  const rows = sqlite
    .prepare("SELECT hash, created_at AS createdAt FROM __drizzle_migrations ORDER BY id")
    .all() as { hash: unknown; createdAt: unknown }[];
  for (const [index, row] of rows.entries()) {
    const createdAt = Number(row.createdAt);
    // Written by a newer Ratekeeper: `newer` says so.
    if (createdAt > newest) break;
    const ours = files[index];
    const entry = journal[index];
    if (ours === undefined || entry === undefined) {
      return `migration ${index + 1} (created ${createdAt}) is one this version does not have`;
    }
    if (createdAt !== ours.folderMillis || row.hash !== ours.hash) {
      return `migration ${index + 1} is not this version's ${entry.tag} (another ${row.hash !== ours.hash ? "SQL hash" : "time"})`;
    }
  }
  return null;
}

/** countRows counts the rows an operator recognises a database by (see DatabaseCounts). */
export function countRows(sqlite: Database.Database): DatabaseCounts {
  const has = (table: string) =>
    sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !==
    undefined;
  const count = (table: string) =>
    (sqlite.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  const usageTables = ["usage_minutes", "usage_hours", "usage_days"];
  const lastAudit = sqlite.prepare("SELECT max(id) AS id FROM audit_log").get() as {
    id: number | null;
  };
  return {
    plans: count("plans"),
    customers: count("customers"),
    serviceTokens: has("service_tokens") ? count("service_tokens") : null,
    auditEntries: count("audit_log"),
    lastAuditId: lastAudit.id ?? 0,
    usageRows: usageTables.every(has)
      ? usageTables.reduce((sum, table) => sum + count(table), 0)
      : null,
  };
}

/**
 * DatabaseState is what settleDatabase found: another connection has the database open
 * ("in-use"), it was idle and its log is now folded into its main file ("settled"), or SQLite
 * cannot read it ("unreadable": damaged, or not a database).
 */
export type DatabaseState = "in-use" | "settled" | "unreadable";

/**
 * settleDatabase tells whether another connection (a running server, another tool) has the
 * database at `file` open, by asking SQLite for an exclusive lock, which any open connection in
 * WAL mode prevents. When it gets the lock it is the last connection, and closing it does what
 * SQLite's last close does: a final checkpoint, then the -wal and -shm files are deleted, so
 * the main file alone holds every committed write.
 */
export function settleDatabase(file: string): DatabaseState {
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { fileMustExist: true, timeout: 0 });
  } catch {
    return "unreadable";
  }
  try {
    sqlite.pragma("locking_mode = EXCLUSIVE");
    sqlite.exec("BEGIN EXCLUSIVE");
    sqlite.exec("COMMIT");
    return "settled";
  } catch (error) {
    return (error as { code?: string }).code === "SQLITE_BUSY" ? "in-use" : "unreadable";
  } finally {
    sqlite.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
