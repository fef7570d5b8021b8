import { type Clock, systemClock } from "@/lib/limiter";

/**
 * appClock is the app's default clock: whole milliseconds since the Unix epoch, read from the
 * monotonic clock so that a stepped wall clock cannot move decisions (and whole, because the
 * same readings are stored in INTEGER columns). Everything else takes a Clock as an argument.
 */
export const appClock: Clock = {
  now: () => Math.floor(performance.timeOrigin + performance.now()),
  sleep: systemClock.sleep,
};
