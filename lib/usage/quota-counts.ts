import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { quotaCounts } from "@/db/schema";
import type { Clock, Quota, QuotaState } from "@/lib/limiter";
import { quotaOfCalendar } from "@/lib/limiter/calendar-id";
import type { Logger } from "@/lib/log";

/** QuotaHolder is what QuotaCounts needs of a limiter: its quota states, and a way back in. */
export interface QuotaHolder {
  quotaStates(): QuotaState<string>[];
  restoreQuota(quota: Quota, state: QuotaState<string>): boolean;
}

/** QuotaCountsOptions: the database, the limiter whose quota states it keeps, the clock, the log. */
export interface QuotaCountsOptions {
  db: Db;
  limiter: QuotaHolder;
  clock: Clock;
  log: Logger;
}

/** rowId names one state: its key and calendar id (a NUL between, which neither holds). */
const rowId = (key: string, calendarId: string) => `${key}\u0000${calendarId}`;

/**
 * QuotaCounts make the in-memory limiter's quota counts survive a restart (the full app without
 * Redis): `restore` loads the saved states into the limiter at start, before the first decision
 * (a state of a past period is ignored, and its row deleted); `save` runs after every usage flush
 * and at a graceful close, and writes only the states that changed since the last save (and
 * deletes the rows of states the limiter no longer holds: swept, or reset by an operator). A
 * crash loses the decisions since the last save: at most one flush interval's.
 */
export class QuotaCounts {
  private readonly options: QuotaCountsOptions;
  /** saved is what the table holds, as this instance wrote or read it: rowId → "start:used". */
  private saved = new Map<string, string>();

  constructor(options: QuotaCountsOptions) {
    this.options = options;
  }

  /**
   * restore merges every saved state of the current period into the limiter and deletes the
   * rows of past periods (or of calendars this build cannot read); it returns how many states
   * it restored.
   */
  restore(): number {
    const { db, limiter, clock, log } = this.options;
    const now = clock.now();
    let restored = 0;
    const stale: { key: string; calendarId: string }[] = [];
    for (const row of db.select().from(quotaCounts).all()) {
      const quota = quotaOfCalendar(row.calendarId);
      if (!quota || quota.calendarId !== row.calendarId) {
        stale.push(row);
        continue;
      }
      if (row.startMs < quota.calendar.windowAt(now).startMs) {
        stale.push(row);
        continue;
      }
      const state = {
        key: row.key,
        calendarId: row.calendarId,
        startMs: row.startMs,
        used: row.used,
      };
      limiter.restoreQuota(quota, state);
      this.saved.set(rowId(row.key, row.calendarId), `${row.startMs}:${row.used}`);
      restored++;
    }
    if (stale.length > 0) {
      db.transaction((tx) => {
        for (const row of stale) {
          tx.delete(quotaCounts)
            .where(and(eq(quotaCounts.key, row.key), eq(quotaCounts.calendarId, row.calendarId)))
            .run();
        }
      });
    }
    if (restored > 0) log.info(`Restored ${restored} quota counts of the current periods.`);
    return restored;
  }

  /**
   * save writes the quota states that changed since the last save, in one transaction, and
   * deletes the rows of states gone from the limiter; it returns the rows written or deleted.
   * A write SQLite refuses is logged and tried again, whole, at the next save.
   */
  save(): number {
    const { db, limiter, clock, log } = this.options;
    const now = clock.now();
    const current = new Map<string, string>();
    const changed: QuotaState<string>[] = [];
    for (const state of limiter.quotaStates()) {
      if (state.used === 0) continue;
      const id = rowId(state.key, state.calendarId);
      const value = `${state.startMs}:${state.used}`;
      current.set(id, value);
      if (this.saved.get(id) !== value) changed.push(state);
    }
    const gone = [...this.saved.keys()].filter((id) => !current.has(id));
    if (changed.length === 0 && gone.length === 0) return 0;
    try {
      db.transaction((tx) => {
        for (const state of changed) {
          const row = { ...state, updatedAt: now };
          tx.insert(quotaCounts)
            .values(row)
            .onConflictDoUpdate({
              target: [quotaCounts.key, quotaCounts.calendarId],
              set: { startMs: row.startMs, used: row.used, updatedAt: now },
            })
            .run();
        }
        for (const id of gone) {
          const [key, calendarId] = id.split("\u0000") as [string, string];
          tx.delete(quotaCounts)
            .where(and(eq(quotaCounts.key, key), eq(quotaCounts.calendarId, calendarId)))
            .run();
        }
      });
    } catch (error) {
      log.error("Saving the quota counts to SQLite failed; the next flush tries again", error);
      return 0;
    }
    this.saved = current;
    return changed.length + gone.length;
  }
}
