import { MINUTE_MS, SECOND_MS } from "./time";

/**
 * FLEET is who the fleet's own fields of a second's hash count: "*:<operation>:a|d" sum every
 * customer's decisions.
 */
export const FLEET = "*";

/** LIVE_LIFETIME_MS: the live keys expire after 15 minutes (the view spans 5). */
export const LIVE_LIFETIME_MS = 15 * MINUTE_MS;

/**
 * liveSecondKey names the hash of one second of the live view (`second`: whole seconds since the
 * epoch). Every live key shares the hash tag "{live}", so a pipeline stays in one slot of a
 * Redis Cluster.
 */
export function liveSecondKey(prefix: string, second: number): string {
  return `${prefix}:{live}:s:${second}`;
}

/** liveMinuteKey names the hash of the per-customer totals of one minute (`minute`: since the epoch). */
export function liveMinuteKey(prefix: string, minute: number): string {
  return `${prefix}:{live}:m:${minute}`;
}

/** minuteOfSecond is the minute (since the epoch) a second (since the epoch) falls in. */
export function minuteOfSecond(second: number): number {
  return Math.floor((second * SECOND_MS) / MINUTE_MS);
}
