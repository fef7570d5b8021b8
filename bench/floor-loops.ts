import type { SyncLoop } from "./harness";
import { MapFloor, MapFloorPair } from "./map-floor";
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

const floor1 = new MapFloor(HOT_COUNT, HOT_PERIOD_MS);
const floor2 = new MapFloorPair(HOT_COUNT, HOT_PERIOD_MS, HOT2_COUNT, HOT2_PERIOD_MS);
/** floorDenied is the Map floor's denied-path limiter (DENIED_COUNT per hour), drained first. */
export const floorDenied = new MapFloor(DENIED_COUNT, DENIED_PERIOD_MS);

/**
 * floorLoops are the Map floor's hot-key loops, one literal per workload so each call site stays
 * monomorphic: they return how many calls were allowed (hot) or denied (denied).
 */
export const floorLoops: Record<HotWorkload, SyncLoop> = {
  hot1: (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) if (floor1.allow(HOT_KEY)) allowed++;
    return allowed;
  },
  hot2: (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) if (floor2.allow(HOT_KEY)) allowed++;
    return allowed;
  },
  denied: (n) => {
    let denied = 0;
    for (let i = 0; i < n; i++) if (!floorDenied.allow(DENIED_KEY)) denied++;
    return denied;
  },
};
