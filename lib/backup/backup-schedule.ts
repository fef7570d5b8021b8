import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { Env } from "@/lib/env";
import { type Clock, DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/limiter";
import type { Logger } from "@/lib/log";
import type { BackupReport } from "./backup-file";
import { backupFileName, backupTimeOf } from "./backup-names";
import { failureText, formatBytes, formatCount, isRoutineFailure } from "./backup-report";

/** MAX_RETRY_MS bounds the wait before a failed backup is tried again: 15 minutes. */
export const MAX_RETRY_MS = 15 * 60_000;

/** STALE_TEMP matches the hidden temporary file of a scheduled backup a crash left behind. */
const STALE_TEMP = /^\.ratekeeper-\d{8}T\d{6}Z\.db\.\d+-[0-9a-f]+\.tmp(-journal)?$/;

/** BackupSettings are what BACKUP_DIR, BACKUP_INTERVAL and BACKUP_KEEP set (lib/env.ts). */
export interface BackupSettings {
  /** dir is where the backups go, each named by the UTC instant it was taken. */
  dir: string;
  /** intervalMs is the time between two backups, in milliseconds. */
  intervalMs: number;
  /** keep is how many backups stay in `dir`: older ones are deleted after each new one. */
  keep: number;
}

/** DEFAULT_BACKUP_INTERVAL_MS is the time between scheduled backups when BACKUP_INTERVAL is unset: 6 h. */
export const DEFAULT_BACKUP_INTERVAL_MS = 6 * 3_600_000;

/** DEFAULT_BACKUP_KEEP is how many backups stay when BACKUP_KEEP is unset: a week's, every 6 h. */
export const DEFAULT_BACKUP_KEEP = 28;

/** backupSettingsOf reads the schedule from the validated environment: none without BACKUP_DIR. */
export function backupSettingsOf(env: Env): BackupSettings | undefined {
  if (env.BACKUP_DIR === undefined) return undefined;
  return {
    dir: env.BACKUP_DIR,
    intervalMs: env.BACKUP_INTERVAL ?? DEFAULT_BACKUP_INTERVAL_MS,
    keep: env.BACKUP_KEEP ?? DEFAULT_BACKUP_KEEP,
  };
}

/** BackupScheduleOptions: the settings, the time, the log, and how one backup is written. */
export interface BackupScheduleOptions extends BackupSettings {
  /** clock tells the time (ms since the epoch) and sleeps: the app's, or a test's fake one. */
  clock: Required<Clock>;
  log: Logger;
  /**
   * write takes one backup of the database to `file` (in a worker thread on a server), and ends
   * it when `signal` aborts.
   */
  write(file: string, signal: AbortSignal): Promise<BackupReport>;
}

/**
 * BackupSchedule takes a backup of the database every `intervalMs` into `dir` and keeps the
 * newest `keep`. It continues the history it finds in `dir`: the first backup is due one
 * interval after the newest there (at once with none), so a server restarted more often than
 * the interval still backs up. A failed backup is logged as an error, counted, and tried again
 * after min(interval, MAX_RETRY_MS); it never throws out of the schedule. A backup named later
 * than now (left by a clock that ran ahead) is neither the newest nor pruned: it is kept, and
 * named in a warning once.
 */
export class BackupSchedule {
  private readonly options: BackupScheduleOptions;
  private readonly abort = new AbortController();
  private lastSuccessMs: number;
  /** hasBackup: a backup was taken since the start, or found in the directory. */
  private hasBackup = false;
  private failureCount = 0;
  private loop: Promise<void> | undefined;
  /** warnedFuture holds the names of backups named in the future already warned about. */
  private readonly warnedFuture = new Set<string>();

  /** constructor reads nothing yet; `start` looks at the directory. */
  constructor(options: BackupScheduleOptions) {
    this.options = options;
    this.lastSuccessMs = options.clock.now();
  }

  /** start clears temporary files a crash left, then runs the schedule until `stop`. */
  start(): void {
    if (this.loop) return;
    const { clock, dir, intervalMs, keep, log } = this.options;
    log.info(
      `Scheduled backups: every ${describeMs(intervalMs)} into ${dir}, keeping the newest ${keep}.`,
    );
    const newest = this.newestBackupMs();
    if (newest !== undefined) {
      this.lastSuccessMs = newest;
      this.hasBackup = true;
    }
    const dueMs = newest === undefined ? clock.now() : newest + intervalMs;
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      log.error(
        `Could not create BACKUP_DIR ${dir}: ${failureText(error)}; each backup tries again, the next ${whenDue(dueMs, clock.now())}`,
      );
    }
    this.clearStaleTemps();
    // run catches what a backup throws; this is for the unforeseen, which must not end the server.
    this.loop = this.run(dueMs).catch((error: unknown) => {
      log.error("BACKUP SCHEDULE STOPPED: no more scheduled backups until a restart", error);
    });
  }

  /** stop ends the schedule: the wait for the next backup, and a backup under way. */
  async stop(): Promise<void> {
    this.abort.abort(new Error("backups stopped"));
    await this.loop;
  }

  /** lastSuccessAgeSeconds is the time since the newest backup (or since the start, with none). */
  lastSuccessAgeSeconds(): number {
    return Math.max(0, (this.options.clock.now() - this.lastSuccessMs) / 1000);
  }

  /** failures counts the backups that failed since the start. */
  failures(): number {
    return this.failureCount;
  }

  /**
   * backupNow takes one backup and prunes the old ones: the report, or undefined when it failed
   * (logged and counted).
   */
  async backupNow(): Promise<BackupReport | undefined> {
    const { clock, dir, intervalMs, log } = this.options;
    const takenMs = clock.now();
    const file = path.join(dir, backupFileName(takenMs));
    let report: BackupReport;
    try {
      // A directory that could not be created at the start (or was removed since) is tried again.
      mkdirSync(dir, { recursive: true });
    } catch {
      // The write below fails and says why.
    }
    try {
      report = await this.options.write(file, this.abort.signal);
    } catch (error) {
      if (this.abort.signal.aborted) return undefined;
      this.failureCount++;
      const newest = this.hasBackup
        ? `the newest backup is ${describeMs(clock.now() - this.lastSuccessMs)} old`
        : "there is no backup yet";
      const retryAt = clock.now() + Math.min(intervalMs, MAX_RETRY_MS);
      const line = `BACKUP FAILED: could not write ${file}: ${failureText(error)} (${this.failureCount} failed since the start; ${newest}); trying again ${whenDue(retryAt, clock.now())}`;
      // A routine failure says all in its message; a stack only helps with the unforeseen.
      if (isRoutineFailure(error)) log.error(line);
      else log.error(line, error);
      return undefined;
    }
    this.lastSuccessMs = takenMs;
    this.hasBackup = true;
    log.info(
      `Backup written: ${report.path} (${formatBytes(report.bytes)}, ${formatCount(report.counts.customers)} customers, ${formatCount(report.counts.auditEntries)} audit entries).`,
    );
    this.prune(path.basename(file));
    return report;
  }

  private async run(firstDueMs: number): Promise<void> {
    const { clock, intervalMs } = this.options;
    const retryMs = Math.min(intervalMs, MAX_RETRY_MS);
    let dueMs = firstDueMs;
    while (!this.abort.signal.aborted) {
      try {
        await clock.sleep(Math.max(0, dueMs - clock.now()), this.abort.signal);
      } catch {
        return;
      }
      const ok = (await this.backupNow()) !== undefined;
      dueMs = clock.now() + (ok ? intervalMs : retryMs);
    }
  }

  /**
   * backups lists the scheduled backups in `dir` named at or before now, newest first. One named
   * later than now (a clock that ran ahead) is left out, so it is neither the newest nor pruned,
   * and named in a warning the first time it is seen.
   */
  private backups(): { name: string; ms: number }[] {
    const { clock, dir, log } = this.options;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    const nowMs = clock.now();
    const found: { name: string; ms: number }[] = [];
    for (const name of names) {
      const ms = backupTimeOf(name);
      if (ms === undefined) continue;
      if (ms <= nowMs) found.push({ name, ms });
      else if (!this.warnedFuture.has(name)) {
        this.warnedFuture.add(name);
        log.warn(
          `Backup ${path.join(dir, name)} is named later than now (${new Date(nowMs).toISOString()}): a clock ran ahead when it was written. It is kept, never pruned and not counted as the newest; move it out of BACKUP_DIR or delete it once you have checked it.`,
        );
      }
    }
    return found.sort((a, b) => b.ms - a.ms);
  }

  private newestBackupMs(): number | undefined {
    return this.backups()[0]?.ms;
  }

  /**
   * prune deletes the backups beyond the newest `keep`, and only files named as backups: never
   * `written`, the backup just taken, nor one named in the future.
   */
  private prune(written: string): void {
    const { dir, keep, log } = this.options;
    const listed = this.backups();
    const others = listed.filter(({ name }) => name !== written);
    const room = others.length < listed.length ? keep - 1 : keep;
    for (const { name } of others.slice(room)) {
      try {
        rmSync(path.join(dir, name));
        log.info(`Backup pruned (BACKUP_KEEP=${keep}): ${name}`);
      } catch (error) {
        log.error(
          `Could not delete the old backup ${path.join(dir, name)}: ${failureText(error)}; the next backup tries again`,
        );
      }
    }
  }

  private clearStaleTemps(): void {
    const { dir, log } = this.options;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names.filter((n) => STALE_TEMP.test(n))) {
      rmSync(path.join(dir, name), { force: true });
      log.info(`Removed ${name}, the unfinished copy of an interrupted backup.`);
    }
  }
}

/** whenDue says when something due at `dueMs` happens, from `nowMs`: "in 15 min (at 2025-01-01T00:15:00.000Z)". */
function whenDue(dueMs: number, nowMs: number): string {
  const at = new Date(dueMs).toISOString();
  return dueMs <= nowMs ? `now (${at})` : `in ${describeMs(dueMs - nowMs)} (at ${at})`;
}

/** describeMs writes a duration for the log, rounded to its largest unit: "6 h", "90 s", "0 s". */
export function describeMs(ms: number): string {
  for (const [unit, size] of [
    ["d", DAY_MS],
    ["h", HOUR_MS],
    ["min", MINUTE_MS],
  ] as const) {
    if (ms >= size) return `${Math.round((ms / size) * 10) / 10} ${unit}`;
  }
  return `${Math.round(ms / 1_000)} s`;
}
