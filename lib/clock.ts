import { type Clock, systemClock } from "@/lib/limiter";

/**
 * appClock is the app's default clock: milliseconds since the Unix epoch, read from the
 * monotonic clock so that a stepped wall clock cannot move decisions. Everything else takes a
 * Clock as an argument.
 */
export const appClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: systemClock.sleep,
};
