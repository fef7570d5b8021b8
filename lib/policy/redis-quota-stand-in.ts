import type { Limiter } from "@/lib/limiter";
import { quotaOfCalendar } from "@/lib/limiter/calendar-id";
import { type QuotaMemory, quotaKey } from "@/lib/limiter-redis";
import type { RequestInput } from "./policy-limiter";

/**
 * seedStandIn restores into the stand-in what the Redis limiter's memory last saw of each quota
 * key (the larger used count of the same period wins; past periods are ignored), when an outage
 * starts: a customer's quotas then go on counting from the last count this instance knew, plus
 * what the stand-in admits, never from a fresh 0. It returns how many states changed.
 */
export function seedStandIn(memory: QuotaMemory, standIn: Limiter<RequestInput, string>): number {
  let changed = 0;
  for (const { quota, state } of memory.states()) {
    if (standIn.restoreQuota(quota, { ...state, key: String(state.key) })) changed++;
  }
  return changed;
}

/**
 * rememberStandIn raises the Redis limiter's memory with the stand-in's quota counts when an
 * outage ends: should Redis have lost a key meanwhile, the next decision seeds it with what the
 * stand-in admitted too. Keys are named under `prefix`, as the Redis limiter names them.
 */
export function rememberStandIn(
  standIn: Limiter<RequestInput, string>,
  memory: QuotaMemory,
  prefix: string,
): void {
  for (const state of standIn.quotaStates()) {
    const quota = quotaOfCalendar(state.calendarId);
    if (!quota || state.used === 0) continue;
    memory.raise(quotaKey(prefix, state.key, quota), quota, state.key, state.startMs, state.used);
  }
}
