import { RateLimiterMemory, RateLimiterUnion } from "rate-limiter-flexible";
import type { AsyncLoop } from "./harness";
import {
  DENIED_COUNT,
  DENIED_KEY,
  DENIED_PERIOD_MS,
  HOT_COUNT,
  HOT_KEY,
  HOT_PERIOD_MS,
  HOT2_COUNT,
  HOT2_PERIOD_MS,
  type HotWorkload,
} from "./parameters";

/** rejected tells a RateLimiterMemory denial (a RateLimiterRes) from a real error, as callers do. */
export function rejected(reason: unknown): boolean {
  if (reason instanceof Error) throw reason;
  return true;
}

// keyPrefix "" spares RateLimiterMemory a string concatenation per call (its fastest setup).
const rlm1 = new RateLimiterMemory({
  points: HOT_COUNT,
  duration: HOT_PERIOD_MS / 1000,
  keyPrefix: "",
});
// Two limits with rate-limiter-flexible: its documented composite, RateLimiterUnion (distinct
// prefixes are required: they name the limiters in its result).
const rlm2 = new RateLimiterUnion(
  new RateLimiterMemory({ points: HOT_COUNT, duration: HOT_PERIOD_MS / 1000, keyPrefix: "s" }),
  new RateLimiterMemory({ points: HOT2_COUNT, duration: HOT2_PERIOD_MS / 1000, keyPrefix: "m" }),
);
// The same two with rate-limiter-flexible's default keyPrefix ("rlflx"), as most callers leave it:
// a sensitivity figure, not the headline (which uses its fastest setup above).
const rlmPrefixed1 = new RateLimiterMemory({ points: HOT_COUNT, duration: HOT_PERIOD_MS / 1000 });
/** rlmPrefixedDenied is the denied-path RateLimiterMemory with the default keyPrefix. */
export const rlmPrefixedDenied = new RateLimiterMemory({
  points: DENIED_COUNT,
  duration: DENIED_PERIOD_MS / 1000,
});
/** rlmDenied is the denied-path RateLimiterMemory in its fastest setup (keyPrefix ""). */
export const rlmDenied = new RateLimiterMemory({
  points: DENIED_COUNT,
  duration: DENIED_PERIOD_MS / 1000,
  keyPrefix: "",
});

/**
 * rlmLoops are RateLimiterMemory's hot-key loops (keyPrefix "", each `consume` awaited, a refusal
 * caught), one literal per workload: they return how many calls were allowed (hot) or denied.
 */
export const rlmLoops: Record<HotWorkload, AsyncLoop> = {
  hot1: async (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlm1.consume(HOT_KEY);
        allowed++;
      } catch (reason) {
        rejected(reason);
      }
    }
    return allowed;
  },
  hot2: async (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlm2.consume(HOT_KEY);
        allowed++;
      } catch (reason) {
        rejected(reason);
      }
    }
    return allowed;
  },
  denied: async (n) => {
    let denied = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlmDenied.consume(DENIED_KEY);
      } catch (reason) {
        if (rejected(reason)) denied++;
      }
    }
    return denied;
  },
};

/**
 * rlmPrefixedLoops are context rows, keyed by case id: RateLimiterMemory with its default
 * keyPrefix, on the hot and denied keys.
 */
export const rlmPrefixedLoops: Record<"rlmPrefixed/hot1" | "rlmPrefixed/denied", AsyncLoop> = {
  "rlmPrefixed/hot1": async (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlmPrefixed1.consume(HOT_KEY);
        allowed++;
      } catch (reason) {
        rejected(reason);
      }
    }
    return allowed;
  },
  "rlmPrefixed/denied": async (n) => {
    let denied = 0;
    for (let i = 0; i < n; i++) {
      try {
        await rlmPrefixedDenied.consume(DENIED_KEY);
      } catch (reason) {
        if (rejected(reason)) denied++;
      }
    }
    return denied;
  },
};
