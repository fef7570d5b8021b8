import { Limiter, limit } from "../lib/limiter";
import type { SyncLoop } from "./harness";
import {
  DENIED_COUNT,
  DENIED_KEY,
  HOT_COUNT,
  HOT_KEY,
  HOT2_COUNT,
  type HotWorkload,
} from "./parameters";

/** identity is the key func of every Ratekeeper limiter in the benchmark: the key is the input. */
export const identity = (key: string) => key;

const rk1 = new Limiter<string, string>(identity, limit(HOT_COUNT, "1s"));
const rk2 = new Limiter<string, string>(identity, [
  limit(HOT_COUNT, "1s"),
  limit(HOT2_COUNT, "1m"),
]);
/** rkDenied is Ratekeeper's denied-path limiter (DENIED_COUNT per hour), drained first. */
export const rkDenied = new Limiter<string, string>(identity, limit(DENIED_COUNT, "1h"));

/**
 * ratekeeperLoops are Ratekeeper's hot-key loops, one literal per workload so each call site stays
 * monomorphic: they return how many calls were allowed (hot) or denied (denied).
 */
export const ratekeeperLoops: Record<HotWorkload, SyncLoop> = {
  hot1: (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) if (rk1.allow(HOT_KEY)) allowed++;
    return allowed;
  },
  hot2: (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) if (rk2.allow(HOT_KEY)) allowed++;
    return allowed;
  },
  denied: (n) => {
    let denied = 0;
    for (let i = 0; i < n; i++) if (!rkDenied.allow(DENIED_KEY)) denied++;
    return denied;
  },
};
