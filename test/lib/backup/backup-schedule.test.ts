import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BackupReport, writeBackup } from "@/lib/backup/backup-file";
import { backupFileName } from "@/lib/backup/backup-names";
import { BackupSchedule, backupSettingsOf, MAX_RETRY_MS } from "@/lib/backup/backup-schedule";
import { parseEnv } from "@/lib/env";
import type { Logger } from "@/lib/log";
import { createMetrics } from "@/lib/metrics";
import { FakeClock, flush } from "../../support/fake-clock";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";

const HOUR = 3_600_000;
const SIX_HOURS = 6 * HOUR;

let t: TestRuntime;
let dir: string;
let clock: FakeClock;
let lines: { level: string; message: string; cause?: unknown }[];
let schedules: BackupSchedule[];

const log: Logger = {
  info: (message) => lines.push({ level: "info", message }),
  warn: (message) => lines.push({ level: "warn", message }),
  error: (message, cause) => lines.push({ level: "error", message, cause }),
};

beforeEach(() => {
  t = createTestRuntime();
  dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-schedule-"));
  clock = new FakeClock(START_MS);
  lines = [];
  schedules = [];
});

afterEach(async () => {
  for (const schedule of schedules) await schedule.stop();
  t.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** realWrite backs the test runtime's database up, in this thread. */
const realWrite = async (file: string): Promise<BackupReport> => writeBackup(t.databasePath, file);

function schedule(
  options: {
    keep?: number;
    intervalMs?: number;
    write?: (file: string, signal: AbortSignal) => Promise<BackupReport>;
  } = {},
): BackupSchedule {
  const made = new BackupSchedule({
    dir,
    intervalMs: options.intervalMs ?? SIX_HOURS,
    keep: options.keep ?? 10,
    clock,
    log,
    write: options.write ?? realWrite,
  });
  schedules.push(made);
  return made;
}

/** asleep lets the schedule run until it waits on the clock for its next backup. */
async function asleep(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await flush();
    if (clock.pendingSleeps === 1) return;
  }
  throw new Error("the schedule never went back to sleep");
}

const backupsIn = () =>
  readdirSync(dir)
    .filter((name) => name.startsWith("ratekeeper-"))
    .sort();
const name = (ms: number) => backupFileName(ms);

describe("scheduled backups", () => {
  it("take the first backup at once when BACKUP_DIR holds none, then one every interval, named by UTC time", async () => {
    schedule().start();
    await asleep();
    expect(backupsIn()).toEqual(["ratekeeper-20250101T000000Z.db"]);
    const copy = new Database(path.join(dir, name(START_MS)), { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    copy.close();
    clock.advance(SIX_HOURS - 1);
    await asleep();
    expect(backupsIn()).toHaveLength(1);
    clock.advance(1);
    await asleep();
    clock.advance(SIX_HOURS);
    await asleep();
    expect(backupsIn()).toEqual([
      "ratekeeper-20250101T000000Z.db",
      "ratekeeper-20250101T060000Z.db",
      "ratekeeper-20250101T120000Z.db",
    ]);
    expect(lines.filter((l) => l.message.startsWith("Backup written:"))).toHaveLength(3);
  });

  it("continue the history after a restart: the next backup is due an interval after the newest in BACKUP_DIR", async () => {
    writeFileSync(path.join(dir, name(START_MS - 2 * HOUR)), "an earlier run's backup");
    schedule().start();
    await asleep();
    expect(backupsIn()).toEqual([name(START_MS - 2 * HOUR)]);
    clock.advance(4 * HOUR);
    await asleep();
    expect(backupsIn()).toEqual([name(START_MS - 2 * HOUR), name(START_MS + 4 * HOUR)]);
  });

  it("are not held off by a newest backup stamped in the future (a clock set back)", async () => {
    writeFileSync(path.join(dir, name(START_MS + 30 * 86_400_000)), "from a clock ahead");
    schedule().start();
    await asleep();
    clock.advance(SIX_HOURS);
    await asleep();
    expect(backupsIn()).toContain(name(START_MS + SIX_HOURS));
  });

  it("keep the newest BACKUP_KEEP backups and delete older ones, and nothing else in the directory", async () => {
    const others = ["notes.txt", "ratekeeper.db", "ratekeeper-manual.db", "ratekeeper-2025.db"];
    for (const other of others) writeFileSync(path.join(dir, other), "not a scheduled backup");
    schedule({ keep: 2 }).start();
    await asleep();
    for (let i = 0; i < 3; i++) {
      clock.advance(SIX_HOURS);
      await asleep();
    }
    expect(backupsIn()).toEqual(
      [
        "ratekeeper-20250101T120000Z.db",
        "ratekeeper-20250101T180000Z.db",
        ...others.filter((o) => o.startsWith("ratekeeper-")),
      ].sort(),
    );
    for (const other of others) expect(existsSync(path.join(dir, other))).toBe(true);
    expect(lines.filter((l) => l.message.startsWith("Backup pruned (BACKUP_KEEP=2)"))).toHaveLength(
      2,
    );
  });

  it("log a failed backup as an error, count it in ratekeeper_backup_failures_total, try again sooner, and go on", async () => {
    let failing = true;
    const write = async (file: string) => {
      if (failing) throw new Error("No space left on device");
      return realWrite(file);
    };
    const made = schedule({ write });
    const metrics = createMetrics(() => 0);
    metrics.watchBackups(made);
    made.start();
    await asleep();
    expect(backupsIn()).toEqual([]);
    const failed = lines.filter((l) => l.level === "error");
    expect(failed).toHaveLength(1);
    expect(failed[0]?.message).toBe(
      `BACKUP FAILED: could not write ${path.join(dir, name(START_MS))}: No space left on device (1 failed since the start; there is no backup yet); trying again in 15 min (at 2025-01-01T00:15:00.000Z)`,
    );
    expect(await metrics.registry.metrics()).toContain("ratekeeper_backup_failures_total 1");
    // Tried again after MAX_RETRY_MS, not after the 6 h interval.
    clock.advance(MAX_RETRY_MS);
    await asleep();
    expect(lines.filter((l) => l.level === "error")).toHaveLength(2);
    expect(await metrics.registry.metrics()).toContain("ratekeeper_backup_failures_total 2");
    failing = false;
    clock.advance(MAX_RETRY_MS);
    await asleep();
    expect(backupsIn()).toEqual([name(START_MS + 2 * MAX_RETRY_MS)]);
    const text = await metrics.registry.metrics();
    expect(text).toContain("ratekeeper_backup_failures_total 2");
    expect(text).toContain("ratekeeper_backup_last_success_age_seconds 0");
  });

  it("report the age of the newest backup, found in BACKUP_DIR or taken, at the scrape", async () => {
    writeFileSync(path.join(dir, name(START_MS - HOUR)), "an earlier run's backup");
    const made = schedule();
    const metrics = createMetrics(() => 0);
    metrics.watchBackups(made);
    made.start();
    await asleep();
    expect(await metrics.registry.metrics()).toContain(
      "ratekeeper_backup_last_success_age_seconds 3600",
    );
    clock.advance(5 * HOUR);
    await asleep();
    clock.advance(90_000);
    expect(await metrics.registry.metrics()).toContain(
      "ratekeeper_backup_last_success_age_seconds 90",
    );
  });

  it("remove at start the unfinished copy an interrupted backup left, and nothing else hidden", async () => {
    const stale = ".ratekeeper-20241231T180000Z.db.4242-0a1b2c3d.tmp";
    writeFileSync(path.join(dir, stale), "half a copy");
    writeFileSync(path.join(dir, ".keep"), "");
    schedule().start();
    await asleep();
    expect(readdirSync(dir).sort()).toEqual([".keep", name(START_MS)]);
  });

  it("stop waiting on stop, and end a backup under way", async () => {
    let aborted: unknown;
    const write = (_file: string, signal: AbortSignal) =>
      new Promise<BackupReport>((_resolve, reject) => {
        signal.addEventListener("abort", () => {
          aborted = signal.reason;
          reject(signal.reason);
        });
      });
    const made = schedule({ write });
    made.start();
    await flush();
    await made.stop();
    expect(aborted).toBeInstanceOf(Error);
    expect(clock.pendingSleeps).toBe(0);
    // A stopped schedule neither logs the abort as a failure nor counts it.
    expect(made.failures()).toBe(0);
    expect(lines.filter((l) => l.level === "error")).toEqual([]);
  });
});

describe("scheduled backups and a backup named in the future (a clock that ran ahead)", () => {
  const FUTURE = Date.UTC(2027, 10, 25);

  it("never prune the backup just written, nor the one named in the future, with BACKUP_KEEP=1", async () => {
    writeFileSync(path.join(dir, name(FUTURE)), "from a clock ahead");
    writeFileSync(path.join(dir, name(START_MS - HOUR)), "an earlier run's backup");
    schedule({ keep: 1 }).start();
    await asleep();
    clock.advance(5 * HOUR);
    await asleep();
    expect(backupsIn()).toEqual([name(START_MS + 5 * HOUR), name(FUTURE)]);
    clock.advance(SIX_HOURS);
    await asleep();
    expect(backupsIn()).toEqual([name(START_MS + 11 * HOUR), name(FUTURE)]);
    const pruned = lines.filter((l) => l.message.startsWith("Backup pruned"));
    expect(pruned.map((l) => l.message)).toEqual([
      `Backup pruned (BACKUP_KEEP=1): ${name(START_MS - HOUR)}`,
      `Backup pruned (BACKUP_KEEP=1): ${name(START_MS + 5 * HOUR)}`,
    ]);
  });

  it("warn once, naming the file named in the future, and never delete it", async () => {
    writeFileSync(path.join(dir, name(FUTURE)), "from a clock ahead");
    schedule({ keep: 1 }).start();
    await asleep();
    for (let i = 0; i < 3; i++) {
      clock.advance(SIX_HOURS);
      await asleep();
    }
    const warnings = lines.filter((l) => l.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain(
      `Backup ${path.join(dir, name(FUTURE))} is named later than now (2025-01-01T00:00:00.000Z)`,
    );
    expect(existsSync(path.join(dir, name(FUTURE)))).toBe(true);
  });

  it("start the next backup an interval after the newest backup named before now, and report its age", async () => {
    writeFileSync(path.join(dir, name(FUTURE)), "from a clock ahead");
    writeFileSync(path.join(dir, name(START_MS - 2 * HOUR)), "an earlier run's backup");
    const made = schedule();
    const metrics = createMetrics(() => 0);
    metrics.watchBackups(made);
    made.start();
    await asleep();
    expect(await metrics.registry.metrics()).toContain(
      "ratekeeper_backup_last_success_age_seconds 7200",
    );
    clock.advance(4 * HOUR);
    await asleep();
    expect(backupsIn()).toContain(name(START_MS + 4 * HOUR));
  });
});

describe("scheduled backups' log lines", () => {
  it("say a routine failure in one line, with its cause and when the next try is, and no stack", async () => {
    const full = Object.assign(new Error("ENOSPC: no space left on device, write"), {
      code: "ENOSPC",
    });
    schedule({
      intervalMs: 10 * 60_000,
      write: async () => {
        throw full;
      },
    }).start();
    await asleep();
    const failed = lines.filter((l) => l.level === "error");
    expect(failed).toEqual([
      {
        level: "error",
        message: `BACKUP FAILED: could not write ${path.join(dir, name(START_MS))}: ENOSPC: no space left on device, write (1 failed since the start; there is no backup yet); trying again in 10 min (at 2025-01-01T00:10:00.000Z)`,
        cause: undefined,
      },
    ]);
  });

  it("keep the stack of an unforeseen failure", async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'path')");
    schedule({
      write: async () => {
        throw bug;
      },
    }).start();
    await asleep();
    expect(lines.filter((l) => l.level === "error").map((l) => l.cause)).toEqual([bug]);
  });

  it("say in one line, with no stack, that BACKUP_DIR could not be created, and when it tries again", async () => {
    writeFileSync(path.join(dir, "plain"), "a file where a directory should be");
    const backups = path.join(dir, "plain", "backups");
    const made = new BackupSchedule({
      dir: backups,
      intervalMs: SIX_HOURS,
      keep: 2,
      clock,
      log,
      write: realWrite,
    });
    schedules.push(made);
    made.start();
    await asleep();
    const first = lines.find((l) => l.message.startsWith("Could not create BACKUP_DIR"));
    expect(first?.message).toMatch(
      new RegExp(
        `^Could not create BACKUP_DIR ${backups}: ENOTDIR: not a directory[^\n]*; each backup tries again, the next now \\(2025-01-01T00:00:00\\.000Z\\)$`,
      ),
    );
    expect(first?.cause).toBeUndefined();
    expect(lines.filter((l) => l.level === "error").every((l) => l.cause === undefined)).toBe(true);
  });

  it("write counts as db:backup does: 10,000 customers", async () => {
    const write = async (file: string): Promise<BackupReport> => {
      const report = await realWrite(file);
      return { ...report, counts: { ...report.counts, customers: 10_000, auditEntries: 12_345 } };
    };
    schedule({ write }).start();
    await asleep();
    expect(lines.find((l) => l.message.startsWith("Backup written:"))?.message).toMatch(
      /, 10,000 customers, 12,345 audit entries\)\.$/,
    );
  });
});

describe("backupSettingsOf", () => {
  it("turns the schedule on with BACKUP_DIR only, every 6 h keeping 28 unless told", () => {
    expect(backupSettingsOf(parseEnv({}))).toBeUndefined();
    expect(backupSettingsOf(parseEnv({ BACKUP_DIR: "/b" }))).toEqual({
      dir: "/b",
      intervalMs: SIX_HOURS,
      keep: 28,
    });
    expect(
      backupSettingsOf(parseEnv({ BACKUP_DIR: "/b", BACKUP_INTERVAL: "1d", BACKUP_KEEP: "7" })),
    ).toEqual({ dir: "/b", intervalMs: 86_400_000, keep: 7 });
  });
});
