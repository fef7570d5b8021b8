import { type Clock, systemClock } from "@/lib/limiter";

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
