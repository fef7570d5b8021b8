import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCustomer } from "@/lib/admin/customers";
import { writeBackupInWorker } from "@/lib/backup/backup-in-worker";
import { backupFileName } from "@/lib/backup/backup-names";
import { isRoutineFailure } from "@/lib/backup/backup-report";
import { silentLogger } from "@/lib/log";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { FakeClock } from "../../support/fake-clock";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";

let t: TestRuntime;
let dir: string;

beforeEach(() => {
  t = createTestRuntime();
  dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-backup-worker-"));
});

afterEach(() => {
  t.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** fillUsage adds hour rollups until the database is big enough that a copy takes a while. */
function fillUsage(rt: Runtime, customerId: number, hours: number): void {
  const insert = rt.sqlite.prepare(
    "INSERT INTO usage_hours (start_ms, customer_id, operation, plan_id, allowed, denied) VALUES (?, ?, ?, 1, ?, 1)",
  );
  rt.sqlite.transaction(() => {
    for (let h = 0; h < hours; h++) {
      for (const operation of ["read", "write"]) {
        insert.run(START_MS - (h + 1) * 3_600_000, customerId, operation, h);
      }
    }
  })();
}

function read<T>(file: string, sql: string): T[] {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.prepare(sql).all() as T[];
  } finally {
    sqlite.close();
  }
}

describe("a backup in a worker thread", () => {
  it("taken while the runtime keeps creating customers, passes integrity_check and holds each customer with its audit entry, the audit ids without a gap", async () => {
    const { runtime } = t;
    fillUsage(runtime, t.demoId, 50_000);
    const planId = t.planId("free");
    let created = 0;
    const create = () => {
      const outcome = createCustomer(runtime, "operator", { name: `Writer ${created}`, planId });
      if (!outcome.ok) throw new Error("createCustomer failed");
      created++;
    };
    for (let i = 0; i < 5; i++) create();
    const before = created;
    const target = path.join(dir, "during-writes.db");
    let done = false;
    const backup = writeBackupInWorker({ source: t.databasePath, target }).finally(() => {
      done = true;
    });
    // The writer: one customer (and its audit entry, one transaction) per turn of the event loop,
    // until the worker has answered.
    while (!done) {
      create();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const report = await backup;
    const after = created;

    expect(read(target, "PRAGMA integrity_check")).toEqual([{ integrity_check: "ok" }]);
    // The writer wrote on both sides of the copy's moment.
    const inBackup = report.counts.customers - 1; // less the demo customer
    expect(inBackup).toBeGreaterThan(before);
    expect(inBackup).toBeLessThan(after);

    const ids = read<{ id: number }>(target, "SELECT id FROM audit_log ORDER BY id").map(
      (row) => row.id,
    );
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
    expect(report.counts.lastAuditId).toBe(ids.length);
    const orphans = read(
      target,
      `SELECT c.id FROM customers c WHERE c.name LIKE 'Writer %' AND NOT EXISTS (
         SELECT 1 FROM audit_log a WHERE a.action = 'customer.create' AND a.entity_id = CAST(c.id AS TEXT))`,
    );
    expect(orphans).toEqual([]);
    const entriesWithoutCustomer = read(
      target,
      `SELECT a.id FROM audit_log a WHERE a.action = 'customer.create' AND NOT EXISTS (
         SELECT 1 FROM customers c WHERE CAST(c.id AS TEXT) = a.entity_id)`,
    );
    expect(entriesWithoutCustomer).toEqual([]);
    // The backup is the original as of one moment: the same rows up to its last audit entry.
    const upTo = `WHERE id <= ${report.counts.lastAuditId} ORDER BY id`;
    expect(read(target, `SELECT * FROM audit_log ${upTo}`)).toEqual(
      read(t.databasePath, `SELECT * FROM audit_log ${upTo}`),
    );
    const maxCustomer = Math.max(
      ...read<{ id: number }>(target, "SELECT id FROM customers").map((row) => row.id),
    );
    const customersUpTo = `SELECT * FROM customers WHERE id <= ${maxCustomer} ORDER BY id`;
    expect(read(target, customersUpTo)).toEqual(read(t.databasePath, customersUpTo));
    expect(report.counts.usageRows).toBe(100_000);
  }, 60_000);

  it("rejects with the worker's error, naming what is wrong", async () => {
    await expect(
      writeBackupInWorker({ source: path.join(dir, "none.db"), target: path.join(dir, "x.db") }),
    ).rejects.toThrow(`No database at ${path.join(dir, "none.db")}`);
    await expect(
      writeBackupInWorker({ source: t.databasePath, target: path.join(dir, "no", "x.db") }),
    ).rejects.toThrow(`The directory ${path.join(dir, "no")} does not exist: create it first`);
  }, 30_000);

  it("marks the worker's foreseen failure as routine, so the schedule logs it in one line without a stack", async () => {
    const failure = await writeBackupInWorker({
      source: t.databasePath,
      target: path.join(dir, "no", "x.db"),
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ routine: true });
    expect(isRoutineFailure(failure)).toBe(true);
  }, 30_000);
});

describe("the full app's runtime with scheduled backups", () => {
  it("takes the first backup at start in a worker, the next one an interval later, and reports them at the scrape", async () => {
    const clock = new FakeClock(START_MS);
    const backups = path.join(dir, "backups");
    const runtime = createRuntime({
      databasePath: path.join(dir, "app.db"),
      clock,
      adminPassword: "test-password",
      log: silentLogger,
      usage: { timers: false },
      tokenUseFlushIntervalMs: 0,
      backups: { dir: backups, intervalMs: 6 * 3_600_000, keep: 1 },
    });
    try {
      const first = path.join(backups, backupFileName(START_MS));
      // Written, and the schedule asleep until the next one.
      await expect
        .poll(() => existsSync(first) && clock.pendingSleeps === 1, { timeout: 20_000 })
        .toBe(true);
      let metrics = await runtime.metrics.registry.metrics();
      expect(metrics).toContain("ratekeeper_backup_last_success_age_seconds 0");
      expect(metrics).toContain("ratekeeper_backup_failures_total 0");
      expect(read(first, "SELECT slug FROM plans ORDER BY id")).toEqual([
        { slug: "free" },
        { slug: "pro" },
        { slug: "enterprise" },
      ]);
      clock.advance(3_600_000);
      metrics = await runtime.metrics.registry.metrics();
      expect(metrics).toContain("ratekeeper_backup_last_success_age_seconds 3600");
      clock.advance(5 * 3_600_000);
      const second = path.join(backups, backupFileName(START_MS + 6 * 3_600_000));
      // BACKUP_KEEP=1: the second replaces the first.
      await expect
        .poll(() => readdirSync(backups), { timeout: 20_000 })
        .toEqual([path.basename(second)]);
    } finally {
      await runtime.shutdown();
    }
  }, 60_000);
});
