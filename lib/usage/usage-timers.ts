import type { Logger } from "@/lib/log";
import { MINUTE_MS } from "./time";

/** FOLD_INTERVAL_MS: folding and pruning run once a minute. */
const FOLD_INTERVAL_MS = MINUTE_MS;
/** LIVE_PUSH_INTERVAL_MS: the live view's seconds go to Redis about once a second. */
const LIVE_PUSH_INTERVAL_MS = 1_000;

/** UsageWork is what the timers run: the usage service's own steps. */
export interface UsageWork {
  flush(): Promise<unknown>;
  claim(): Promise<unknown>;
  fold(): Promise<unknown>;
  pushLive(): Promise<unknown>;
}

/**
 * AFTERWARDS says, for each step, what becomes of its work when it fails: nothing is lost, the
 * next run tries again.
 */
const AFTERWARDS = {
  flush: "its counts are kept and sent again at the next flush",
  claim: "the fleet's counts stay in Redis and are claimed at the next flush",
  fold: "it runs again in a minute",
  "live push": "the live view's seconds are sent again in a second",
} as const;

/** UsageStep names a step the timers run. */
type UsageStep = keyof typeof AFTERWARDS;

/**
 * startUsageTimers runs the usage steps on unref'd intervals and returns the timers: the flush
 * every `flushIntervalMs` (followed by a claim, with `claims`), the fold once a minute and once
 * now (with `folds`), the live push each second (with `live`). A failed step is logged on one
 * line, with its cause and what becomes of its work; the next interval tries again.
 */
export function startUsageTimers(
  work: UsageWork,
  options: {
    flushIntervalMs: number;
    claims: boolean;
    folds: boolean;
    live: boolean;
    log: Logger;
  },
): ReturnType<typeof setInterval>[] {
  const timers: ReturnType<typeof setInterval>[] = [];
  const attempt = async (what: UsageStep, step: () => Promise<unknown>): Promise<boolean> => {
    try {
      await step();
      return true;
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      options.log.warn(`Usage ${what} failed (${cause}): ${AFTERWARDS[what]}.`);
      return false;
    }
  };
  const run = (what: UsageStep, step: () => Promise<unknown>) => () => {
    void attempt(what, step);
  };
  const every = (ms: number, what: UsageStep, step: () => Promise<unknown>) => {
    const timer = setInterval(run(what, step), ms);
    timer.unref?.();
    timers.push(timer);
  };
  every(options.flushIntervalMs, "flush", async () => {
    if ((await attempt("flush", () => work.flush())) && options.claims) {
      await attempt("claim", () => work.claim());
    }
  });
  if (options.folds) {
    every(FOLD_INTERVAL_MS, "fold", () => work.fold());
    run("fold", () => work.fold())();
  }
  if (options.live) every(LIVE_PUSH_INTERVAL_MS, "live push", () => work.pushLive());
  return timers;
}
