import type { Clock } from "@/lib/limiter";

interface Sleeper {
  deadline: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * FakeClock is a Clock for tests: time moves only when a test calls `advance` or `set`, and
 * `sleep` resolves when time reaches its deadline. It never touches a real timer.
 */
export class FakeClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];

  /** constructor starts the clock at `startMs` milliseconds. */
  constructor(startMs = 0) {
    this.current = startMs;
  }

  /** now returns the current time in milliseconds. */
  now(): number {
    return this.current;
  }

  /** advance moves time forward by `ms` (at least 0) and wakes the sleepers now due. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance takes a non-negative ms, got ${ms}`);
    this.current += ms;
    this.wake();
  }

  /** set moves time to `ms`, backwards if need be, and wakes the sleepers now due. */
  set(ms: number): void {
    this.current = ms;
    this.wake();
  }

  /** pendingSleeps is the number of sleeps not yet resolved or rejected. */
  get pendingSleeps(): number {
    return this.sleepers.length;
  }

  /**
   * sleep resolves once time reaches `now() + ms`, or rejects with `signal.reason` when the signal
   * aborts first (at once if it already has).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const sleeper: Sleeper = {
        deadline: this.current + ms,
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.remove(sleeper);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener("abort", sleeper.onAbort, { once: true });
      this.sleepers.push(sleeper);
      this.wake();
    });
  }

  private wake(): void {
    for (const sleeper of [...this.sleepers]) {
      if (this.current >= sleeper.deadline) {
        this.remove(sleeper);
        sleeper.resolve();
      }
    }
  }

  private remove(sleeper: Sleeper): void {
    this.sleepers = this.sleepers.filter((s) => s !== sleeper);
    sleeper.signal?.removeEventListener("abort", sleeper.onAbort);
  }
}

/** flush lets every queued promise callback run, so awaited sleeps can settle. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** settled reports, after a flush, whether `promise` is still pending, fulfilled or rejected. */
export async function settled(
  promise: Promise<unknown>,
): Promise<"pending" | "fulfilled" | "rejected"> {
  let state: "pending" | "fulfilled" | "rejected" = "pending";
  promise.then(
    () => {
      state = "fulfilled";
    },
    () => {
      state = "rejected";
    },
  );
  await flush();
  return state;
}
