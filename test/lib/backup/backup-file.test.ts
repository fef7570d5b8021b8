import {
  chmodSync,
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeBackup } from "@/lib/backup/backup-file";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

let t: TestRuntime;
let dir: string;

beforeEach(() => {
  t = createTestRuntime();
  dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-backup-"));
});

afterEach(() => {
  t.cleanup();
  chmodSync(dir, 0o700);
  rmSync(dir, { recursive: true, force: true });
});

function rows(file: string, sql: string): unknown[] {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.prepare(sql).all();
  } finally {
    sqlite.close();
  }
}

describe("writeBackup", () => {
  it("writes a copy of the open database that passes integrity_check and reports what it holds", () => {
    const customer = t.addCustomer("pro", "Acme");
    const target = path.join(dir, "copy.db");
    const report = writeBackup(t.databasePath, target);
    expect(report.path).toBe(target);
    expect(report.bytes).toBe(statSync(target).size);
    expect(report.migrations).toMatchObject({ newer: false, latest: expect.stringMatching(/^00/) });
    expect(report.migrations.applied).toBe(report.migrations.known);
    expect(report.counts).toMatchObject({ plans: 3, customers: 2, serviceTokens: 0 });
    expect(rows(target, "PRAGMA integrity_check")).toEqual([{ integrity_check: "ok" }]);
    expect(rows(target, "SELECT id, name, api_key_hash FROM customers ORDER BY id")).toEqual(
      rows(t.databasePath, "SELECT id, name, api_key_hash FROM customers ORDER BY id"),
    );
    expect(rows(target, `SELECT name FROM customers WHERE id = ${customer.id}`)).toEqual([
      { name: "Acme" },
    ]);
    // One self-contained file: no -wal to carry, and nothing else left in the directory.
    expect(readdirSync(dir)).toEqual(["copy.db"]);
  });

  // A copy of the main file alone is not a backup: committed writes wait in the -wal until a
  // checkpoint folds them in.
  it("holds the writes still in the write-ahead log, not yet in the main file", () => {
    t.runtime.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    t.runtime.sqlite.pragma("wal_autocheckpoint = 0");
    for (let i = 0; i < 10; i++) t.addCustomer("free", `In the log ${i}`);
    const target = path.join(dir, "copy.db");
    expect(writeBackup(t.databasePath, target).counts.customers).toBe(11);
    expect(
      rows(target, "SELECT count(*) AS n FROM customers WHERE name LIKE 'In the log %'"),
    ).toEqual([{ n: 10 }]);
  });

  it("refuses to replace an existing file unless told to, and then replaces it whole", () => {
    const target = path.join(dir, "copy.db");
    writeFileSync(target, "precious");
    expect(() => writeBackup(t.databasePath, target)).toThrow(
      `${target} exists: name a new file, or pass --force to replace it`,
    );
    expect(readFileSync(target, "utf8")).toBe("precious");
    writeBackup(t.databasePath, target, { overwrite: true });
    expect(rows(target, "SELECT count(*) AS n FROM plans")).toEqual([{ n: 3 }]);
    expect(readdirSync(dir)).toEqual(["copy.db"]);
  });

  it("names a missing database, a missing directory, a directory as target, and the database itself", () => {
    expect(() => writeBackup(path.join(dir, "none.db"), path.join(dir, "copy.db"))).toThrow(
      `No database at ${path.join(dir, "none.db")}`,
    );
    expect(() => writeBackup(t.databasePath, path.join(dir, "missing", "copy.db"))).toThrow(
      `The directory ${path.join(dir, "missing")} does not exist: create it first`,
    );
    mkdirSync(path.join(dir, "sub"));
    expect(() => writeBackup(t.databasePath, path.join(dir, "sub"))).toThrow(
      `${path.join(dir, "sub")} is a directory: name a file in it`,
    );
    writeFileSync(path.join(dir, "plain"), "");
    expect(() => writeBackup(t.databasePath, path.join(dir, "plain", "copy.db"))).toThrow(
      `${path.join(dir, "plain")} is not a directory`,
    );
    expect(() => writeBackup(t.databasePath, t.databasePath, { overwrite: true })).toThrow(
      `${t.databasePath} is the database itself: name another file`,
    );
    expect(rows(t.databasePath, "PRAGMA integrity_check")).toEqual([{ integrity_check: "ok" }]);
  });

  it("refuses a file that is not a Ratekeeper database", () => {
    const text = path.join(dir, "notes.txt");
    writeFileSync(text, "not a database at all, just some words to fill a page".repeat(100));
    expect(() => writeBackup(text, path.join(dir, "copy.db"))).toThrow(
      `${text} is not a SQLite database`,
    );
    const other = path.join(dir, "other.db");
    new Database(other).exec("CREATE TABLE t (x)");
    expect(() => writeBackup(other, path.join(dir, "copy.db"))).toThrow(
      `${other} is not a Ratekeeper database: it holds no Ratekeeper tables`,
    );
    expect(readdirSync(dir).sort()).toEqual(["notes.txt", "other.db"]);
  });

  it("leaves nothing at the target, nor a temporary file, when the copy fails", () => {
    for (let i = 0; i < 20; i++) t.addCustomer("free", `Customer ${i}`);
    t.runtime.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    const damaged = path.join(dir, "damaged.db");
    writeFileSync(damaged, readFileSync(t.databasePath));
    // Scribble over the customers table's root page: the schema still reads, the copy cannot.
    const pageSize = t.runtime.sqlite.pragma("page_size", { simple: true }) as number;
    const { rootpage } = t.runtime.sqlite
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'customers'")
      .get() as { rootpage: number };
    const fd = openSync(damaged, "r+");
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (rootpage - 1) * pageSize);
    closeSync(fd);
    const out = path.join(dir, "out");
    mkdirSync(out);
    expect(() => writeBackup(damaged, path.join(out, "copy.db"))).toThrow(
      `Could not copy ${damaged}: database disk image is malformed`,
    );
    expect(readdirSync(out)).toEqual([]);
    expect(existsSync(path.join(out, "copy.db"))).toBe(false);
  });

  it("refuses the database's own -wal, -shm and -journal as the target, even with --force, and leaves the live log whole", () => {
    t.runtime.sqlite.pragma("wal_autocheckpoint = 0");
    for (let i = 0; i < 5; i++) t.addCustomer("free", `Confirmed ${i}`);
    const wal = readFileSync(`${t.databasePath}-wal`);
    const shm = readFileSync(`${t.databasePath}-shm`);
    expect(wal.length).toBeGreaterThan(0);
    for (const [suffix, what] of [
      ["-wal", "is the database's write-ahead log (its -wal file, which holds its latest writes)"],
      ["-shm", "is the database's shared-memory index (its -shm file)"],
      ["-journal", "is the database's rollback journal (its -journal file)"],
    ] as const) {
      const target = `${t.databasePath}${suffix}`;
      expect(() => writeBackup(t.databasePath, target, { overwrite: true })).toThrow(
        `${target} ${what}: name another file`,
      );
    }
    // Through a symbolic link to the database's directory, too.
    const link = path.join(dir, "link");
    symlinkSync(path.dirname(t.databasePath), link);
    const viaLink = path.join(link, `${path.basename(t.databasePath)}-wal`);
    expect(() => writeBackup(t.databasePath, viaLink, { overwrite: true })).toThrow(
      `${viaLink} is the database's write-ahead log`,
    );
    expect(readFileSync(`${t.databasePath}-wal`).equals(wal)).toBe(true);
    expect(readFileSync(`${t.databasePath}-shm`).equals(shm)).toBe(true);
    expect(existsSync(`${t.databasePath}-journal`)).toBe(false);
    expect(
      t.runtime.sqlite
        .prepare("SELECT count(*) AS n FROM customers WHERE name LIKE 'Confirmed %'")
        .get(),
    ).toEqual({ n: 5 });
  });

  it("says the target is the database itself before asking for --force", () => {
    expect(() => writeBackup(t.databasePath, t.databasePath)).toThrow(
      `${t.databasePath} is the database itself: name another file`,
    );
    const hardLink = path.join(dir, "same.db");
    linkSync(t.databasePath, hardLink);
    expect(() => writeBackup(t.databasePath, hardLink, { overwrite: true })).toThrow(
      `${hardLink} is the database itself: name another file`,
    );
  });
});
