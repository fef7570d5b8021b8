import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { MIGRATIONS_FOLDER } from "./migrations-folder";
import * as schema from "./schema";

/** Db is the drizzle handle over one SQLite file; `$client` is its better-sqlite3 connection. */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** Tx is a transaction (or the db itself): query functions accept either. */
export type Tx = Pick<Db, "select" | "insert" | "update" | "delete" | "run" | "get" | "all">;

/** OpenedDatabase is a drizzle handle with its better-sqlite3 connection. */
export interface OpenedDatabase {
  db: Db;
  sqlite: Database.Database;
  /** created is true when the file did not exist or held no tables before this open. */
  created: boolean;
}

export { MIGRATIONS_FOLDER };

/**
 * openDatabase opens (creating if needed) the SQLite file at `file`, in WAL mode with foreign
 * keys enforced, and applies pending migrations.
 */
export function openDatabase(file: string, migrationsFolder = MIGRATIONS_FOLDER): OpenedDatabase {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const hadPlans = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'plans'")
    .get();
  const db = drizzle(sqlite, { schema });
  try {
    migrate(db, { migrationsFolder });
  } catch (cause) {
    sqlite.close();
    throw new Error(`Could not migrate the database at ${file}`, { cause });
  }
  return { db, sqlite, created: !hadPlans };
}
