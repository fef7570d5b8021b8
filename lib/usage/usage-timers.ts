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
 * startUsageTimers runs the usage steps on unref'd intervals and returns the timers: the flush
 * every `flushIntervalMs` (followed by a claim, with `claims`), the fold once a minute and once
 * now (with `folds`), the live push each second (with `live`). A failed step is logged; the next
 * interval tries again.
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
  const run = (what: string, step: () => Promise<unknown>) => () => {
    step().catch((error: unknown) => options.log.error(`Usage ${what} failed`, error));
  };
  const every = (ms: number, what: string, step: () => Promise<unknown>) => {
    const timer = setInterval(run(what, step), ms);
    timer.unref?.();
    timers.push(timer);
  };
  every(options.flushIntervalMs, "flush", async () => {
    await work.flush();
    if (options.claims) await work.claim();
  });
  if (options.folds) {
    every(FOLD_INTERVAL_MS, "fold", () => work.fold());
    run("fold", () => work.fold())();
  }
  if (options.live) every(LIVE_PUSH_INTERVAL_MS, "live push", () => work.pushLive());
  return timers;
}
