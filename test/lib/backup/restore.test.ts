import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCustomer } from "@/lib/admin/customers";
import { createServiceToken } from "@/lib/admin/service-tokens";
import { hashServiceToken } from "@/lib/auth/service-token";
import { writeBackup } from "@/lib/backup/backup-file";
import { restoreBackup } from "@/lib/backup/restore";
import { hashApiKey } from "@/lib/policy/api-key";
import type { Runtime } from "@/lib/runtime";
import { FakeClock } from "../../support/fake-clock";
import {
  createTestRuntime,
  openTestRuntime,
  START_MS,
  type TestRuntime,
} from "../../support/runtime";

let t: TestRuntime;
let dir: string;

beforeEach(() => {
  t = createTestRuntime();
  dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-restore-"));
});

afterEach(() => {
  t.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** tables lists every table of a database with all its rows, in rowid order. */
function tables(sqlite: Database.Database): Record<string, unknown[]> {
  const names = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all() as { name: string }[];
  return Object.fromEntries(
    names.map(({ name }) => [name, sqlite.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()]),
  );
}

function tablesOf(file: string): Record<string, unknown[]> {
  const sqlite = new Database(file, { readonly: true });
  try {
    return tables(sqlite);
  } finally {
    sqlite.close();
  }
}

/** busy makes some of everything a database holds: plans, customers, a token, usage, audit. */
function busy(runtime: Runtime) {
  const planId = t.planId("pro");
  const made = createCustomer(runtime, "operator", { name: "Acme", planId });
  if (!made.ok) throw new Error("createCustomer failed");
  const token = createServiceToken(runtime, "operator", { name: "orders", scopes: ["decide"] });
  if (!token.ok) throw new Error("createServiceToken failed");
  const insert = runtime.sqlite.prepare(
    "INSERT INTO usage_minutes (start_ms, customer_id, operation, plan_id, allowed, denied) VALUES (?, ?, 'read', ?, ?, ?)",
  );
  for (let m = 0; m < 30; m++)
    insert.run(START_MS - m * 60_000, made.value.customer.id, planId, m, 1);
  return {
    apiKey: made.value.apiKey,
    customerId: made.value.customer.id,
    token: token.value.token,
  };
}

describe("restoreBackup", () => {
  it("gives a runtime started on it the same plans, customers, key hashes, service tokens, usage and audit", () => {
    const made = busy(t.runtime);
    const backup = path.join(dir, "backup.db");
    writeBackup(t.databasePath, backup);
    const original = tables(t.runtime.sqlite);
    // What happens after the backup is not in it.
    createCustomer(t.runtime, "operator", { name: "After the backup", planId: t.planId("free") });

    const restoredPath = path.join(dir, "restored", "ratekeeper.db");
    const report = restoreBackup(backup, restoredPath, START_MS);
    expect(report.keptAs).toBeUndefined();
    expect(report.counts).toMatchObject({ customers: 2, serviceTokens: 1, usageRows: 30 });
    const restored = openTestRuntime(restoredPath, new FakeClock(START_MS));
    try {
      expect(tables(restored.sqlite)).toEqual(original);
      // The key and the token shown once still work: their hashes came back.
      expect(restored.policy.snapshot.byKeyHash.get(hashApiKey(made.apiKey))?.id).toBe(
        made.customerId,
      );
      expect(
        restored.policy.snapshot.serviceTokens.get(hashServiceToken(made.token)),
      ).toBeDefined();
      expect(restored.sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      restored.close();
    }
  });

  it("refuses while another process has the database open, and changes nothing", () => {
    const backup = path.join(dir, "backup.db");
    writeBackup(t.databasePath, backup);
    const before = tables(t.runtime.sqlite);
    // The test runtime holds the database open, as a running server does.
    expect(() => restoreBackup(backup, t.databasePath, START_MS)).toThrow(
      `${t.databasePath} is open in another process (a running server?): stop it, then restore`,
    );
    expect(tables(t.runtime.sqlite)).toEqual(before);
    expect(readdirSync(path.dirname(t.databasePath)).sort()).toEqual([
      "test.db",
      "test.db-shm",
      "test.db-wal",
    ]);
  });

  it("keeps the database it replaces, with the writes still in its log, and never lets that log meet the copy", () => {
    const backup = path.join(dir, "backup.db");
    writeBackup(t.databasePath, backup);
    const target = path.join(dir, "live.db");
    // A database as a crash leaves it: writes in its -wal, not yet in the main file.
    const live = new Database(target);
    live.pragma("journal_mode = WAL");
    live.exec("CREATE TABLE plans (x); CREATE TABLE customers (x); CREATE TABLE audit_log (x);");
    live.exec("CREATE TABLE __drizzle_migrations (id, hash, created_at)");
    live.pragma("wal_autocheckpoint = 0");
    live.exec("INSERT INTO plans VALUES ('written after the backup')");
    const walBytes = statSync(`${target}-wal`).size;
    expect(walBytes).toBeGreaterThan(0);
    const wal = readFileSync(`${target}-wal`);
    const shm = readFileSync(`${target}-shm`);
    live.close();
    // close() checkpointed; put the crash's files back as they were.
    writeFileSync(`${target}-wal`, wal);
    writeFileSync(`${target}-shm`, shm);

    const report = restoreBackup(backup, target, Date.UTC(2025, 5, 1, 12, 30, 0));
    expect(report.keptAs).toBe(`${target}.replaced-20250601T123000Z`);
    expect(existsSync(`${target}-wal`)).toBe(false);
    expect(existsSync(`${target}-shm`)).toBe(false);
    expect(tablesOf(target)).toEqual(tablesOf(backup));
    // Folded into the kept file: it stands alone.
    expect(existsSync(`${report.keptAs}-wal`)).toBe(false);
    const kept = new Database(report.keptAs as string, { readonly: true });
    expect(kept.prepare("SELECT x FROM plans").all()).toEqual([{ x: "written after the backup" }]);
    kept.close();
  });

  it("refuses a backup that fails integrity_check, and leaves the database as it was", () => {
    for (let i = 0; i < 20; i++) t.addCustomer("free", `Customer ${i}`);
    const backup = path.join(dir, "backup.db");
    writeBackup(t.databasePath, backup);
    const sqlite = new Database(backup, { readonly: true });
    const pageSize = sqlite.pragma("page_size", { simple: true }) as number;
    const { rootpage } = sqlite
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'customers_api_key_hash_unique'")
      .get() as { rootpage: number };
    sqlite.close();
    // Damage an index only: the tables read, integrity_check finds it.
    const fd = openSync(backup, "r+");
    writeSync(fd, Buffer.alloc(pageSize, 0), 0, pageSize, (rootpage - 1) * pageSize);
    closeSync(fd);
    const target = path.join(dir, "target.db");
    writeFileSync(target, "the database that must survive");
    expect(() => restoreBackup(backup, target, START_MS)).toThrow(
      `${backup} failed PRAGMA integrity_check, so it is not restored:`,
    );
    expect(readFileSync(target, "utf8")).toBe("the database that must survive");
    expect(readdirSync(dir).sort()).toEqual(["backup.db", "target.db"]);
  });

  it("refuses a backup written by a newer Ratekeeper, and restores an older one for the server to migrate", () => {
    const newer = path.join(dir, "newer.db");
    writeBackup(t.databasePath, newer);
    const sqlite = new Database(newer);
    sqlite
      .prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('x', ?)")
      .run(4_102_444_800_000);
    sqlite.close();
    expect(() => restoreBackup(newer, path.join(dir, "a.db"), START_MS)).toThrow(
      `${newer} was written by a newer Ratekeeper (its schema has migrations this version does not know): restore it with that version or a later one`,
    );
    expect(existsSync(path.join(dir, "a.db"))).toBe(false);

    const older = path.join(dir, "older.db");
    writeBackup(t.databasePath, older);
    const old = new Database(older);
    old.exec(
      "DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)",
    );
    old.close();
    const report = restoreBackup(older, path.join(dir, "b.db"), START_MS);
    expect(report.migrations.applied).toBe(report.migrations.known - 1);
    expect(report.migrations.newer).toBe(false);
  });

  it("names a missing backup and a file that is not a database", () => {
    expect(() =>
      restoreBackup(path.join(dir, "none.db"), path.join(dir, "a.db"), START_MS),
    ).toThrow(`No backup at ${path.join(dir, "none.db")}`);
    writeFileSync(path.join(dir, "notes.txt"), "just words ".repeat(500));
    expect(() =>
      restoreBackup(path.join(dir, "notes.txt"), path.join(dir, "a.db"), START_MS),
    ).toThrow(`${path.join(dir, "notes.txt")} is not a SQLite database`);
    expect(existsSync(path.join(dir, "a.db"))).toBe(false);
  });

  it("refuses to restore the database onto itself or from one of its own files, and leaves nothing beside it", () => {
    const target = path.join(dir, "live.db");
    writeBackup(t.databasePath, target);
    const before = readFileSync(target);
    expect(() => restoreBackup(target, target, START_MS)).toThrow(
      `${target} is the database itself (DATABASE_PATH): name a backup to restore it from`,
    );
    writeFileSync(`${target}-wal`, "");
    expect(() => restoreBackup(`${target}-wal`, target, START_MS)).toThrow(
      `${target}-wal is the database's write-ahead log (its -wal file, which holds its latest writes) (DATABASE_PATH): name a backup to restore it from`,
    );
    rmSync(`${target}-wal`);
    expect(readFileSync(target).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(["live.db"]);
  });

  it("names a directory given as the backup, rather than calling it missing", () => {
    mkdirSync(path.join(dir, "bad"));
    expect(() => restoreBackup(path.join(dir, "bad"), path.join(dir, "a.db"), START_MS)).toThrow(
      `${path.join(dir, "bad")} is a directory: name a backup file in it`,
    );
  });

  it("keeps no empty -wal beside the database it replaces", () => {
    const backup = path.join(dir, "backup.db");
    writeBackup(t.databasePath, backup);
    const target = path.join(dir, "live.db");
    // A file SQLite cannot read, with an empty log beside it: nothing to fold in, nothing to keep.
    writeFileSync(target, "not a database");
    writeFileSync(`${target}-wal`, "");
    const report = restoreBackup(backup, target, START_MS);
    expect(readdirSync(dir).sort()).toEqual(
      ["backup.db", "live.db", path.basename(report.keptAs as string)].sort(),
    );
  });

  it("refuses a backup whose migrations are not this release's, naming the first that differs, and changes nothing", () => {
    const journal = JSON.parse(
      readFileSync(path.join(process.cwd(), "drizzle", "meta", "_journal.json"), "utf8"),
    ) as { entries: { tag: string; when: number }[] };
    const [first, second] = journal.entries;
    // A SQLite file with tables of the right names and a migration of its own.
    const lookalike = path.join(dir, "lookalike.db");
    const sqlite = new Database(lookalike);
    sqlite.exec(
      "CREATE TABLE __drizzle_migrations (id INTEGER PRIMARY KEY, hash TEXT, created_at NUMERIC); CREATE TABLE plans (x); CREATE TABLE customers (x); CREATE TABLE audit_log (id INTEGER PRIMARY KEY);",
    );
    sqlite.prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('abc', ?)").run(1);
    sqlite.close();
    const target = path.join(dir, "target.db");
    writeFileSync(target, "the database that must survive");
    expect(() => restoreBackup(lookalike, target, START_MS)).toThrow(
      `${lookalike} is not a database of this Ratekeeper: its migration 1 is not this version's ${first?.tag} (another SQL hash), so the server could not migrate it. It is not restored`,
    );
    // A backup of ours with its second migration's record changed by hand.
    const edited = path.join(dir, "edited.db");
    writeBackup(t.databasePath, edited);
    const hand = new Database(edited);
    hand
      .prepare("UPDATE __drizzle_migrations SET hash = 'edited' WHERE created_at = ?")
      .run(second?.when);
    hand.close();
    expect(() => restoreBackup(edited, target, START_MS)).toThrow(
      `its migration 2 is not this version's ${second?.tag} (another SQL hash)`,
    );
    expect(readFileSync(target, "utf8")).toBe("the database that must survive");
  });
});
