import { fullGc, heapUsed, median, type Timing, timeAsync } from "./harness";
import { type ManyKeysCase, manyKeysCases } from "./many-keys-cases";
import { IMPLS, type Impl, MANY_KEYS, MANY_KEYS_ROUNDS, MANY_KEYS_WARMUP } from "./parameters";
import { bytesPerBucket, record } from "./results";

/** ipKeys builds `count` distinct IPv4-like key strings, flat and hashed before any baseline. */
function ipKeys(count: number, first: number): string[] {
  const keys: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = first + i;
    keys[i] = `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  // Hashing each key once flattens any cons string now, so no bucket pays for it later.
  new Set(keys).clear();
  return keys;
}

interface ManyKeysRound {
  timing: Timing;
  bytesPerBucket: number;
}

async function manyKeysRound(
  c: ManyKeysCase<unknown>,
  keys: readonly string[],
): Promise<ManyKeysRound> {
  fullGc();
  const before = heapUsed();
  const state = c.create();
  const timing = await timeAsync(async () => c.touch(state, keys), keys.length);
  fullGc();
  const after = heapUsed();
  const size = c.size(state);
  if (timing.result !== keys.length || size !== keys.length) {
    throw new Error(
      `expected ${keys.length} first touches allowed and buckets held, got ${timing.result} and ${size}`,
    );
  }
  await c.dispose?.(state, keys);
  return { timing, bytesPerBucket: (after - before) / keys.length };
}

/**
 * runManyKeys warms every implementation on MANY_KEYS_WARMUP keys, then runs MANY_KEYS_ROUNDS
 * rounds of one first touch per key over MANY_KEYS keys, and records the median time per first
 * touch and the median heap per bucket (after gc(), key strings not counted).
 */
export async function runManyKeys(): Promise<void> {
  const warmKeys = ipKeys(MANY_KEYS_WARMUP, MANY_KEYS);
  const keys = ipKeys(MANY_KEYS, 0);
  for (const impl of IMPLS) {
    const c = manyKeysCases[impl];
    const warm = c.create();
    await c.touch(warm, warmKeys);
    await c.dispose?.(warm, warmKeys);
  }
  const timings = new Map<Impl, Timing[]>();
  const bytes = new Map<Impl, number[]>();
  for (let round = 0; round < MANY_KEYS_ROUNDS; round++) {
    for (const impl of IMPLS) {
      const r = await manyKeysRound(manyKeysCases[impl], keys);
      timings.set(impl, [...(timings.get(impl) ?? []), r.timing]);
      bytes.set(impl, [...(bytes.get(impl) ?? []), r.bytesPerBucket]);
    }
  }
  for (const impl of IMPLS) {
    record(`${impl}/firstTouch`, timings.get(impl) ?? []);
    bytesPerBucket.set(impl, median(bytes.get(impl) ?? []));
  }
}
