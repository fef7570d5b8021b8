import type { Logger } from "@/lib/log";
import { MINUTE_MS } from "./time";

/** FOLD_INTERVAL_MS: folding and pruning run once a minute. */
const FOLD_INTERVAL_MS = MINUTE_MS;
/** LIVE_PUSH_INTERVAL_MS: the live view's seconds go to Redis about once a second. */
const LIVE_PUSH_INTERVAL_MS = 1_000;

/**
 * AFTERWARDS says, for each step, what becomes of its work when it fails: nothing is lost, the
 * next run tries again.
 */
const AFTERWARDS = {
  flush: "its counts are kept and sent again at the next flush",
  claim: "the fleet's counts stay in Redis and are claimed at the next flush",
  fold: "it runs again in a minute",
  "live push": "the live view's seconds are sent again in a second",
  "quota save": "the quota counts that changed are written at the next flush",
  "quota restore": "Redis's quota counts are checked against the rollups again in a minute",
} as const;

/** UsageStepName names a step the timers run (the log line of its failure says which). */
export type UsageStepName = keyof typeof AFTERWARDS;

/** UsageStep is one step the usage timers run: its name and its work. */
export interface UsageStep {
  what: UsageStepName;
  run: () => Promise<unknown>;
}

/**
 * UsageTimersOptions: the steps of each cadence, as the assembly built them. Each cadence runs
 * its steps in order, each once the one before it succeeded; a cadence with none has no timer.
 */
export interface UsageTimersOptions {
  log: Logger;
  /** flushIntervalMs: how often the `everyFlush` steps run (USAGE_FLUSH_INTERVAL_MS). */
  flushIntervalMs: number;
  /** everyFlush: the flush, then, on the full app with Redis, the claim of the fleet's minutes. */
  everyFlush: readonly UsageStep[];
  /** everyMinute: run once at start and then once a minute: the fold (the full app). */
  everyMinute: readonly UsageStep[];
  /** everySecond: run about once a second: the live push (with Redis). */
  everySecond: readonly UsageStep[];
}

/**
 * UsageTimers runs the usage steps on unref'd intervals: `everyFlush` every `flushIntervalMs`,
 * `everyMinute` at start and once a minute, `everySecond` each second. A failed step is logged on
 * one line, with its cause and what becomes of its work, and the steps after it wait for the
 * next run. The intervals are real timers; the steps read the injected clock, and tests call
 * them directly instead of starting the timers.
 */
export class UsageTimers {
  private readonly options: UsageTimersOptions;
  private timers: ReturnType<typeof setInterval>[] = [];
  private stopped = false;

  constructor(options: UsageTimersOptions) {
    this.options = options;
  }

  /** start starts the timers (once; never after `stop`). */
  start(): void {
    if (this.timers.length > 0 || this.stopped) return;
    const { flushIntervalMs, everyFlush, everyMinute, everySecond } = this.options;
    this.every(flushIntervalMs, everyFlush);
    this.every(FOLD_INTERVAL_MS, everyMinute);
    void this.runInOrder(everyMinute);
    this.every(LIVE_PUSH_INTERVAL_MS, everySecond);
  }

  /** stop ends the timers for good; a step already running finishes. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  private every(ms: number, steps: readonly UsageStep[]): void {
    if (steps.length === 0) return;
    const timer = setInterval(() => void this.runInOrder(steps), ms);
    timer.unref?.();
    this.timers.push(timer);
  }

  private async runInOrder(steps: readonly UsageStep[]): Promise<void> {
    for (const step of steps) if (!(await this.attempt(step))) return;
  }

  private async attempt(step: UsageStep): Promise<boolean> {
    try {
      await step.run();
      return true;
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      this.options.log.warn(`Usage ${step.what} failed (${cause}): ${AFTERWARDS[step.what]}.`);
      return false;
    }
  }
}
