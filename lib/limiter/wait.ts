import { type Clock, sleepWithTimer } from "./clock";
import type { Details } from "./types";

/**
 * waitUntilAllowed makes `attempt` (one `allowN` of `n` tokens) again after each retry-after
 * until it is allowed, and resolves with its Details. It rejects with the signal's reason when
 * `signal` aborts, and with a RangeError when `n` exceeds a limit's count (it could never pass).
 * It sleeps with the clock's `sleep` when it has one (a fake clock in tests), else a timer.
 */
export async function waitUntilAllowed(
  attempt: () => Details | Promise<Details>,
  n: number,
  clock: Clock | undefined,
  signal: AbortSignal | undefined,
): Promise<Details> {
  const sleep = clock?.sleep ? clock.sleep.bind(clock) : sleepWithTimer;
  for (;;) {
    if (signal?.aborted) throw signal.reason;
    // A synchronous attempt is not awaited: its sleep starts in the same tick as the call, as a
    // fake clock advanced right after `wait` expects.
    const result = attempt();
    const details = result instanceof Promise ? await result : result;
    if (details.allowed) return details;
    if (details.retryAfterMs === Number.POSITIVE_INFINITY) {
      throw new RangeError(`n (${n}) exceeds the count of a limit: waiting would never end`);
    }
    await sleep(details.retryAfterMs, signal);
  }
}
