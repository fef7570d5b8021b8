import type { Db } from "@/db/client";
import type { Clock } from "@/lib/limiter";
import { type FoldResult, foldAndPrune } from "./sqlite-writer";
import { DAY_MS } from "./time";
import type { UsageSettings } from "./usage-settings";

/** UsageFoldsOptions: the database whose rollups fold, and the retentions. */
export interface UsageFoldsOptions {
  db: Db;
  clock: Clock;
  settings: UsageSettings;
}

/**
 * UsageFolds folds the rollups' closed hours into hour rows and complete days into day rows, and
 * prunes them by the retentions (see foldAndPrune), at the clock's now: on the full app, once a
 * minute (UsageTimers).
 */
export class UsageFolds {
  private readonly options: UsageFoldsOptions;

  constructor(options: UsageFoldsOptions) {
    this.options = options;
  }

  /** fold folds and prunes in one transaction, and says what it did. */
  fold(): FoldResult {
    const { db, clock, settings } = this.options;
    return foldAndPrune(db, clock.now(), {
      minuteRetentionMs: settings.minuteRetentionDays * DAY_MS,
      hourRetentionMs: settings.hourRetentionDays * DAY_MS,
    });
  }
}
