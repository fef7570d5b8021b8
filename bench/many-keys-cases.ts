import type { TokenBucket } from "limiter";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { Limiter, limit } from "../lib/limiter";
import { MapFloor } from "./map-floor";
import { type Impl, MANY_COUNT, MANY_PERIOD_MS } from "./parameters";
import { identity } from "./ratekeeper-loops";
import { rejected } from "./rlm-loops";
import { fullTokenBucket } from "./token-bucket-loops";

/**
 * ManyKeysCase is one implementation under the many-keys workload: a fresh state per round, one
 * first touch per key, then the buckets the state holds.
 */
export interface ManyKeysCase<S> {
  /** create builds a fresh, empty state (a limiter or a map of buckets). */
  create(): S;
  /** touch calls the limiter once per key and returns how many calls were allowed. */
  touch(state: S, keys: readonly string[]): number | Promise<number>;
  /** size is the number of buckets the state holds (checked against the key count). */
  size(state: S): number;
  /** dispose, when set, frees what the state holds so the next round starts from the same heap. */
  dispose?(state: S, keys: readonly string[]): Promise<void>;
}

function manyKeysCase<S>(c: ManyKeysCase<S>): ManyKeysCase<unknown> {
  return c as ManyKeysCase<unknown>;
}

/** manyKeysCases holds each implementation's many-keys case (MANY_COUNT per MANY_PERIOD_MS). */
export const manyKeysCases: Record<Impl, ManyKeysCase<unknown>> = {
  floor: manyKeysCase({
    create: () => new MapFloor(MANY_COUNT, MANY_PERIOD_MS),
    touch: (floor, keys) => {
      let allowed = 0;
      for (let i = 0; i < keys.length; i++) if (floor.allow(keys[i] as string)) allowed++;
      return allowed;
    },
    size: (floor) => floor.size,
  }),
  ratekeeper: manyKeysCase({
    create: () => new Limiter<string, string>(identity, limit(MANY_COUNT, "1h")),
    touch: (limiter, keys) => {
      let allowed = 0;
      for (let i = 0; i < keys.length; i++) if (limiter.allow(keys[i] as string)) allowed++;
      return allowed;
    },
    size: (limiter) => limiter.size,
  }),
  // `limiter` has no keyed store: one TokenBucket per key in a Map, created on first touch.
  tokenBucket: manyKeysCase({
    create: () => new Map<string, TokenBucket>(),
    touch: (buckets, keys) => {
      let allowed = 0;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        let bucket = buckets.get(key);
        if (bucket === undefined) {
          bucket = fullTokenBucket(MANY_COUNT, MANY_PERIOD_MS);
          buckets.set(key, bucket);
        }
        if (bucket.tryRemoveTokens(1)) allowed++;
      }
      return allowed;
    },
    size: (buckets) => buckets.size,
  }),
  rlm: manyKeysCase({
    create: () =>
      new RateLimiterMemory({
        points: MANY_COUNT,
        duration: MANY_PERIOD_MS / 1000,
        keyPrefix: "",
      }),
    touch: async (rlm, keys) => {
      let allowed = 0;
      for (let i = 0; i < keys.length; i++) {
        try {
          await rlm.consume(keys[i] as string);
          allowed++;
        } catch (reason) {
          rejected(reason);
        }
      }
      return allowed;
    },
    // Every consumed key holds one record (and one pending timer) until it expires.
    size: (rlm) =>
      (rlm as unknown as { _memoryStorage: { _storage: Map<string, unknown> } })._memoryStorage
        ._storage.size,
    // Its records hold unref'd timers that keep them alive for the whole duration: delete them
    // so the next round starts from the same heap.
    dispose: async (rlm, keys) => {
      for (let i = 0; i < keys.length; i++) await rlm.delete(keys[i] as string);
    },
  }),
};
