import { type Clock, systemClock } from "@/lib/limiter";
import { sleepWithTimer } from "@/lib/limiter/clock";

const perf = globalThis.performance;
const origin = perf.timeOrigin;

/**
 * appClock is the app's default clock: whole milliseconds since the Unix epoch, read from the
 * monotonic clock so that a stepped wall clock cannot move decisions (and whole, because the
 * same readings are stored in INTEGER columns). Everything else takes a Clock as an argument.
 */
export const appClock: Clock = {
  now: () => Math.floor(origin + perf.now()),
  sleep: systemClock.sleep,
};

/**
 * durationClock reads the monotonic clock in fractional milliseconds, for timing how long work
 * takes (the decision latency histogram); nothing decides by it.
 */
export const durationClock: Clock = { now: () => perf.now(), sleep: systemClock.sleep };

/**
 * every runs `task` each time `periodMs` milliseconds of `clock`'s time have passed, one run at
 * a time: the next period starts once the run settles. It sleeps with the clock's `sleep` (a
 * fake clock's in tests, so nothing waits on the wall clock), or real timers for a clock with
 * none. A rejected run is the task's own affair (tasks log their failures). It returns `stop`,
 * which ends the loop at once, a run in flight finishing without a successor.
 */
export function every(
  clock: Clock,
  periodMs: number,
  task: () => Promise<void> | void,
): () => void {
  if (!(periodMs > 0)) throw new RangeError(`every takes a positive periodMs, got ${periodMs}`);
  const stopped = new AbortController();
  const sleep = clock.sleep?.bind(clock) ?? sleepWithTimer;
  const loop = async () => {
    for (;;) {
      try {
        await sleep(periodMs, stopped.signal);
      } catch {
        return;
      }
      if (stopped.signal.aborted) return;
      try {
        await task();
      } catch {
        // The task logs what it must; the loop goes on.
      }
    }
  };
  void loop();
  return () => stopped.abort();
}
