import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, openDatabase } from "@/db/client";

/** migrationsUpTo copies the first `count` migrations into `folder`, with their journal. */
function migrationsUpTo(folder: string, count: number): void {
  mkdirSync(path.join(folder, "meta"), { recursive: true });
  const journal = JSON.parse(
    readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
  );
  journal.entries = journal.entries.slice(0, count);
  for (const entry of journal.entries as { tag: string }[]) {
    copyFileSync(
      path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`),
      path.join(folder, `${entry.tag}.sql`),
    );
  }
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
}

describe("the migrations", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // Regression: drizzle-kit 0.31 copies a column added in the same migration when it rebuilds a
  // table for a new CHECK, so adding dry_run with its CHECK in one migration failed on every
  // database that held limits. The flag and its CHECK come in two migrations.
  it("upgrade a database of the first release with limits and overrides in it", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-migrate-"));
    const first = path.join(dir, "first");
    mkdirSync(path.join(first, "meta"), { recursive: true });
    copyFileSync(path.join(MIGRATIONS_FOLDER, "0000_init.sql"), path.join(first, "0000_init.sql"));
    const journal = JSON.parse(
      readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
    );
    journal.entries = journal.entries.slice(0, 1);
    writeFileSync(path.join(first, "meta", "_journal.json"), JSON.stringify(journal));
    const file = path.join(dir, "old.db");
    const old = openDatabase(file, first);
    old.sqlite.exec(`
      INSERT INTO plans (slug, name, created_at, updated_at) VALUES ('p', 'P', 1, 1);
      INSERT INTO plan_limits (plan_id, operation, count, period_ms) VALUES (1, 'read', 5, 1000);
      INSERT INTO customers (name, plan_id, api_key_hash, api_key_prefix, created_at, updated_at)
        VALUES ('c', 1, 'h', 'rk_', 1, 1);
      INSERT INTO limit_overrides (customer_id, operation, count, period_ms, created_at)
        VALUES (1, 'write', 2, 1000, 1);`);
    old.sqlite.close();

    const upgraded = openDatabase(file);
    try {
      const s = upgraded.sqlite;
      expect(s.prepare("SELECT count, dry_run FROM plan_limits").all()).toEqual([
        { count: 5, dry_run: 0 },
      ]);
      expect(s.prepare("SELECT count, dry_run FROM limit_overrides").all()).toEqual([
        { count: 2, dry_run: 0 },
      ]);
      expect(() => s.prepare("UPDATE plan_limits SET dry_run = 2").run()).toThrow(
        "CHECK constraint failed: plan_limits_dry_run",
      );
      expect(() => s.prepare("UPDATE limit_overrides SET dry_run = 7").run()).toThrow(
        "CHECK constraint failed: limit_overrides_dry_run",
      );
      expect(s.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
      expect(
        s.prepare("SELECT name FROM sqlite_master WHERE name = 'usage_minutes'").get(),
      ).toEqual({ name: "usage_minutes" });
    } finally {
      upgraded.sqlite.close();
    }
  });

  // Dry-run limits learned when they were added; those stored before count from the last time
  // their rows were written (a plan's last edit, an override's last save), never earlier.
  it("upgrade a database with dry-run limits, each counted from the last write of its rows", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-migrate-"));
    const before = path.join(dir, "before");
    migrationsUpTo(before, 5);
    const file = path.join(dir, "old.db");
    const old = openDatabase(file, before);
    old.sqlite.exec(`
      INSERT INTO plans (slug, name, created_at, updated_at) VALUES ('p', 'P', 100, 7000);
      INSERT INTO plan_limits (plan_id, operation, count, period_ms, dry_run)
        VALUES (1, 'read', 5, 1000, 0), (1, 'read', 2, 1000, 1);
      INSERT INTO customers (name, plan_id, api_key_hash, api_key_prefix, created_at, updated_at)
        VALUES ('c', 1, 'h', 'rk_', 1, 1);
      INSERT INTO limit_overrides (customer_id, operation, count, period_ms, dry_run, created_at)
        VALUES (1, 'write', 9, 1000, 0, 5000), (1, 'write', 3, 1000, 1, 5000);
      INSERT INTO usage_minutes (start_ms, customer_id, operation, plan_id, allowed)
        VALUES (60000, 1, 'read', 1, 4);`);
    old.sqlite.close();

    const upgraded = openDatabase(file);
    try {
      const s = upgraded.sqlite;
      expect(
        s.prepare("SELECT count, dry_run, dry_run_since FROM plan_limits ORDER BY id").all(),
      ).toEqual([
        { count: 5, dry_run: 0, dry_run_since: null },
        { count: 2, dry_run: 1, dry_run_since: 7000 },
      ]);
      expect(
        s.prepare("SELECT count, dry_run, dry_run_since FROM limit_overrides ORDER BY id").all(),
      ).toEqual([
        { count: 9, dry_run: 0, dry_run_since: null },
        { count: 3, dry_run: 1, dry_run_since: 5000 },
      ]);
      expect(s.prepare("SELECT allowed FROM usage_minutes").all()).toEqual([{ allowed: 4 }]);
      expect(s.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    } finally {
      upgraded.sqlite.close();
    }
  });

  // The rollups learned to count 413s apart (too_large): rows written before keep every count,
  // with none too large, in each of the three tables, and fold on as before.
  it("upgrade a database with usage rows, keeping every count, none of them too large", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-migrate-"));
    const before = path.join(dir, "before");
    migrationsUpTo(before, 7);
    const file = path.join(dir, "old.db");
    const old = openDatabase(file, before);
    old.sqlite.exec(`
      INSERT INTO plans (slug, name, created_at, updated_at) VALUES ('p', 'P', 1, 1);
      INSERT INTO customers (name, plan_id, api_key_hash, api_key_prefix, created_at, updated_at)
        VALUES ('c', 1, 'h', 'rk_', 1, 1);
      INSERT INTO usage_minutes VALUES (60000, 1, 'read', 1, 4, 2, 1, 1000009, 4);
      INSERT INTO usage_hours VALUES (3600000, 1, 'write', 1, 7, 0, 0, 7, 7);
      INSERT INTO usage_days VALUES (86400000, 1, 'read', 1, 9, 3, 0, 12, 9);`);
    old.sqlite.close();

    const upgraded = openDatabase(file);
    try {
      const s = upgraded.sqlite;
      const columns = "allowed, denied, unavailable, tokens_requested, tokens_taken, too_large";
      expect(s.prepare(`SELECT ${columns} FROM usage_minutes`).all()).toEqual([
        {
          allowed: 4,
          denied: 2,
          unavailable: 1,
          tokens_requested: 1000009,
          tokens_taken: 4,
          too_large: 0,
        },
      ]);
      expect(s.prepare(`SELECT ${columns} FROM usage_hours`).all()).toEqual([
        {
          allowed: 7,
          denied: 0,
          unavailable: 0,
          tokens_requested: 7,
          tokens_taken: 7,
          too_large: 0,
        },
      ]);
      expect(s.prepare(`SELECT ${columns} FROM usage_days`).all()).toEqual([
        {
          allowed: 9,
          denied: 3,
          unavailable: 0,
          tokens_requested: 12,
          tokens_taken: 9,
          too_large: 0,
        },
      ]);
      expect(s.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    } finally {
      upgraded.sqlite.close();
    }
  });

  // Customers learned their billing day: every customer of the previous release keeps its row and
  // what hangs from it (items, overrides, usage), and its day is the UTC day of the month it was
  // created on. Regression guard: drizzle-kit's rebuild of customers inside the migrator's
  // transaction would have cascaded to every child row.
  it("upgrade a database with customers, each billed from the UTC day it was created on", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-migrate-"));
    const before = path.join(dir, "before");
    migrationsUpTo(before, 8);
    const file = path.join(dir, "old.db");
    const old = openDatabase(file, before);
    const created = [
      1, // 1970-01-01
      Date.UTC(2026, 0, 31, 23, 59, 59, 999), // the 31st, whatever the local day
      Date.UTC(2026, 1, 14, 23, 30), // the 14th in UTC, already the 15th in Tokyo
      Date.UTC(2024, 1, 29, 0, 0), // a leap day, at midnight
    ];
    old.sqlite.exec(
      "INSERT INTO plans (slug, name, created_at, updated_at) VALUES ('p', 'P', 1, 1)",
    );
    const insert = old.sqlite.prepare(
      `INSERT INTO customers (name, plan_id, api_key_hash, api_key_prefix, created_at, updated_at)
        VALUES (?, 1, ?, 'rk_', ?, 7)`,
    );
    for (const [i, at] of created.entries()) insert.run(`c${i}`, `h${i}`, at);
    old.sqlite.exec(`
      INSERT INTO items (customer_id, name, created_at, updated_at) VALUES (2, 'i', 1, 1);
      INSERT INTO limit_overrides (customer_id, operation, count, period_ms, created_at)
        VALUES (3, 'write', 2, 1000, 1);
      INSERT INTO usage_minutes (start_ms, customer_id, operation, plan_id, allowed)
        VALUES (60000, 4, 'read', 1, 4);`);
    old.sqlite.close();

    const upgraded = openDatabase(file);
    try {
      const s = upgraded.sqlite;
      expect(
        s
          .prepare(
            "SELECT id, name, api_key_hash, created_at, updated_at, billing_anchor_day FROM customers ORDER BY id",
          )
          .all(),
      ).toEqual(
        created.map((at, i) => ({
          id: i + 1,
          name: `c${i}`,
          api_key_hash: `h${i}`,
          created_at: at,
          updated_at: 7,
          billing_anchor_day: [1, 31, 14, 29][i],
        })),
      );
      expect(s.prepare("SELECT customer_id FROM items").all()).toEqual([{ customer_id: 2 }]);
      expect(s.prepare("SELECT customer_id FROM limit_overrides").all()).toEqual([
        { customer_id: 3 },
      ]);
      expect(s.prepare("SELECT customer_id FROM usage_minutes").all()).toEqual([
        { customer_id: 4 },
      ]);
      expect(() => s.prepare("UPDATE customers SET billing_anchor_day = 32").run()).toThrow(
        "CHECK constraint failed",
      );
      expect(() => s.prepare("UPDATE customers SET billing_anchor_day = 0").run()).toThrow(
        "CHECK constraint failed",
      );
      expect(() => s.prepare("UPDATE customers SET billing_anchor_day = NULL").run()).toThrow(
        "NOT NULL constraint failed",
      );
      s.exec(`INSERT INTO quota_grants
        (customer_id, operation, period, time_zone, period_start_ms, extra, created_at, created_by)
        VALUES (1, 'read', 'month', 'UTC', 0, 5, 1, 'admin')`);
      expect(() =>
        s.exec(`INSERT INTO quota_grants
          (customer_id, operation, period, time_zone, period_start_ms, extra, created_at, created_by)
          VALUES (1, 'read', 'year', 'UTC', 0, 5, 1, 'admin')`),
      ).toThrow("CHECK constraint failed: quota_grants_period");
      expect(() =>
        s.exec(`INSERT INTO quota_grants
          (customer_id, operation, period, time_zone, period_start_ms, extra, created_at, created_by)
          VALUES (1, 'read', 'day', 'UTC', 0, 0, 1, 'admin')`),
      ).toThrow("CHECK constraint failed: quota_grants_extra_positive");
      s.exec("DELETE FROM customers WHERE id = 1");
      expect(s.prepare("SELECT count(*) AS n FROM quota_grants").get()).toEqual({ n: 0 });
      expect(s.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    } finally {
      upgraded.sqlite.close();
    }
  });

  // Operation classes replaced the read/write CHECKs by a table the limits reference: every
  // table rebuilt for it keeps each row, value and index, and takes a new class's rows after.
  it("upgrade a database to operation classes without losing a row, and accept a new class", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-migrate-"));
    const before = path.join(dir, "before");
    migrationsUpTo(before, 8);
    const file = path.join(dir, "old.db");
    const old = openDatabase(file, before);
    old.sqlite.exec(`
      INSERT INTO plans (slug, name, created_at, updated_at) VALUES ('p', 'P', 1, 1), ('q', 'Q', 1, 1);
      INSERT INTO plan_limits (plan_id, operation, count, period_ms, dry_run, dry_run_since)
        VALUES (1, 'read', 5, 1000, 0, NULL), (1, 'write', 2, 1000, 1, 40), (2, 'read', 9, 60000, 0, NULL);
      INSERT INTO customers (name, plan_id, api_key_hash, api_key_prefix, created_at, updated_at)
        VALUES ('c', 1, 'h', 'rk_', 1, 1), ('d', 2, 'i', 'rk_', 1, 1);
      INSERT INTO limit_overrides (customer_id, operation, count, period_ms, dry_run, dry_run_since, expires_at, created_at)
        VALUES (1, 'write', 9, 1000, 0, NULL, 99000, 5000), (2, 'read', 3, 1000, 1, 6000, NULL, 6000);
      INSERT INTO usage_minutes VALUES (60000, 1, 'read', 1, 4, 2, 1, 1000009, 4, 3);
      INSERT INTO usage_hours VALUES (3600000, 1, 'write', 1, 7, 0, 0, 7, 7, 0);
      INSERT INTO usage_days VALUES (86400000, 2, 'read', 2, 9, 3, 0, 12, 9, 1);
      INSERT INTO usage_dry_run_minutes VALUES (60000, 1, 'write', 1, 'plan', 2, 1000, 6);
      INSERT INTO usage_dry_run_hours VALUES (3600000, 2, 'read', 2, 'override', 3, 1000, 8);`);
    const tables = [
      "plan_limits",
      "limit_overrides",
      "usage_minutes",
      "usage_hours",
      "usage_days",
      "usage_dry_run_minutes",
      "usage_dry_run_hours",
    ];
    const contents = (db: typeof old.sqlite) =>
      Object.fromEntries(
        tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3, 4`).all()]),
      );
    const indexes = (db: typeof old.sqlite) =>
      db
        .prepare(
          `SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
            AND tbl_name IN (${tables.map((t) => `'${t}'`).join(", ")}) ORDER BY name`,
        )
        .all();
    const was = contents(old.sqlite);
    const wasIndexes = indexes(old.sqlite);
    expect(Object.values(was).every((rows) => rows.length > 0)).toBe(true);
    old.sqlite.close();

    // Up to operation classes only: the quota migration after it adds columns to the limits.
    const after = path.join(dir, "after");
    migrationsUpTo(after, 11);
    const upgraded = openDatabase(file, after);
    try {
      const s = upgraded.sqlite;
      expect(contents(s)).toEqual(was);
      expect(indexes(s)).toEqual(wasIndexes);
      expect(
        s.prepare("SELECT name, description FROM operation_classes ORDER BY name").all(),
      ).toEqual([
        { name: "read", description: "GET and HEAD requests" },
        { name: "write", description: "Every other method" },
      ]);
      expect(s.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
      expect(s.prepare("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });

      // A class that does not exist is refused; once created, its rows are accepted everywhere.
      const planRow =
        "INSERT INTO plan_limits (plan_id, operation, count, period_ms) VALUES (1, 'exports', 3, 1000)";
      expect(() => s.prepare(planRow).run()).toThrow("FOREIGN KEY constraint failed");
      s.prepare(
        "INSERT INTO operation_classes (name, description, created_at) VALUES ('exports', 'CSV exports', 1)",
      ).run();
      s.exec(`
        ${planRow};
        INSERT INTO limit_overrides (customer_id, operation, count, period_ms, created_at)
          VALUES (1, 'exports', 1, 1000, 1);
        INSERT INTO usage_minutes (start_ms, customer_id, operation, plan_id, allowed)
          VALUES (60000, 1, 'exports', 1, 1);
        INSERT INTO usage_dry_run_hours VALUES (3600000, 1, 'exports', 1, 'plan', 3, 1000, 1);`);
      expect(
        s.prepare("SELECT COUNT(*) AS n FROM plan_limits WHERE operation = 'exports'").get(),
      ).toEqual({ n: 1 });
      // A class in use cannot go (ON DELETE RESTRICT); usage history keeps no reference.
      expect(() => s.prepare("DELETE FROM operation_classes WHERE name = 'exports'").run()).toThrow(
        "FOREIGN KEY constraint failed",
      );
      s.exec(
        "DELETE FROM plan_limits WHERE operation = 'exports'; DELETE FROM limit_overrides WHERE operation = 'exports';",
      );
      s.prepare("DELETE FROM operation_classes WHERE name = 'exports'").run();
      expect(
        s.prepare("SELECT COUNT(*) AS n FROM usage_minutes WHERE operation = 'exports'").get(),
      ).toEqual({ n: 1 });
    } finally {
      upgraded.sqlite.close();
    }
  });

  // Quotas joined the limits: plan_limits and limit_overrides were rebuilt (nothing references
  // them), and every limit, override, dry-run row and usage row outlives it unchanged.
  it("upgrade a database to quota rows without losing a row, then check quota rows", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-migrate-"));
    const before = path.join(dir, "before");
    migrationsUpTo(before, 11);
    const file = path.join(dir, "old.db");
    const old = openDatabase(file, before);
    old.sqlite.exec(`
      INSERT INTO plans (slug, name, created_at, updated_at) VALUES ('p', 'P', 1, 1);
      INSERT INTO plan_limits (plan_id, operation, count, period_ms, dry_run, dry_run_since)
        VALUES (1, 'read', 5, 1000, 0, NULL), (1, 'write', 2, 1000, 1, 40);
      INSERT INTO customers (name, plan_id, api_key_hash, api_key_prefix, created_at, updated_at)
        VALUES ('c', 1, 'h', 'rk_', 1, 1);
      INSERT INTO limit_overrides (customer_id, operation, count, period_ms, dry_run, dry_run_since, expires_at, created_at)
        VALUES (1, 'write', 9, 1000, 0, NULL, 99000, 5000), (1, 'read', 3, 1000, 1, 6000, NULL, 6000);
      INSERT INTO usage_dry_run_minutes VALUES (60000, 1, 'write', 1, 'plan', 2, 1000, 6);
      INSERT INTO quota_grants (customer_id, operation, period, time_zone, period_start_ms, extra, created_at, created_by)
        VALUES (1, 'read', 'month', 'UTC', 0, 10, 1, 'admin');`);
    const rows = (db: typeof old.sqlite, table: string) =>
      db
        .prepare(`SELECT * FROM ${table} ORDER BY 1`)
        .all()
        .map((row) => {
          const { quota_period: _p, time_zone: _z, ...rest } = row as Record<string, unknown>;
          return rest;
        });
    const tables = ["plan_limits", "limit_overrides", "usage_dry_run_minutes", "quota_grants"];
    const was = Object.fromEntries(tables.map((t) => [t, rows(old.sqlite, t)]));
    old.sqlite.close();

    const upgraded = openDatabase(file);
    try {
      const s = upgraded.sqlite;
      expect(Object.fromEntries(tables.map((t) => [t, rows(s, t)]))).toEqual(was);
      expect(s.prepare("SELECT quota_period, time_zone FROM plan_limits").all()).toEqual([
        { quota_period: null, time_zone: null },
        { quota_period: null, time_zone: null },
      ]);
      expect(s.prepare("PRAGMA foreign_key_check").all()).toEqual([]);

      const planQuota = (period: string, zone: string) =>
        `INSERT INTO plan_limits (plan_id, operation, count, quota_period, time_zone) VALUES (1, 'read', 100000, ${period}, ${zone})`;
      s.exec(planQuota("'month'", "'Europe/Berlin'"));
      s.exec(planQuota("'day'", "'UTC'"));
      s.exec(`INSERT INTO limit_overrides (customer_id, operation, count, quota_period, time_zone, created_at)
        VALUES (1, 'read', 50, 'week', 'UTC', 1)`);
      expect(() => s.exec(planQuota("'year'", "'UTC'"))).toThrow(
        "CHECK constraint failed: plan_limits_quota_period",
      );
      expect(() => s.exec(planQuota("'day'", "NULL"))).toThrow(
        "CHECK constraint failed: plan_limits_quota_zone",
      );
      expect(() => s.exec(planQuota("'month'", "'Europe/Berlin'"))).toThrow(
        "UNIQUE constraint failed",
      );
      expect(() =>
        s.exec(
          "INSERT INTO plan_limits (plan_id, operation, count, period_ms, quota_period, time_zone) VALUES (1, 'read', 1, 1000, 'day', 'UTC')",
        ),
      ).toThrow("CHECK constraint failed: plan_limits_kind");
      expect(() =>
        s.exec("INSERT INTO plan_limits (plan_id, operation, count) VALUES (1, 'read', 1)"),
      ).toThrow("CHECK constraint failed: plan_limits_kind");
      expect(() =>
        s.exec(`INSERT INTO limit_overrides (customer_id, operation, count, created_at)
          VALUES (1, 'read', 1, 1)`),
      ).toThrow("CHECK constraint failed: limit_overrides_kind");
    } finally {
      upgraded.sqlite.close();
    }
  });
});
