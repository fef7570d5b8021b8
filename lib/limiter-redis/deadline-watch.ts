import type { Clock } from "@/lib/limiter";
import { sleepWithTimer } from "@/lib/limiter/clock";

/**
 * after calls `fire` `ms` from now on `clock`, and returns what cancels it: a timer for a clock
 * of real time, the clock's own sleep for an injected one (so a test's clock drives it). The
 * timer does not keep the process alive: what it waits for (a command on a connection) does.
 */
export function after(clock: Clock, ms: number, fire: () => void): () => void {
  const sleep = clock.sleep;
  if (sleep === undefined || sleep === sleepWithTimer) {
    // One poll phase first: a reply that arrived while the event loop was busy is read before
    // the wait is called over (see timeCommands in lib/redis.ts).
    const timer = setTimeout(() => setImmediate(fire), Math.max(0, ms));
    timer.unref();
    return () => clearTimeout(timer);
  }
  const abort = new AbortController();
  sleep.call(clock, Math.max(0, ms), abort.signal).then(fire, () => {});
  return () => abort.abort();
}

/** Watched is what a DeadlineWatch waits on: given up at `giveUpAt` (ms on the watch's clock). */
export interface Watched {
  readonly giveUpAt: number;
  /** giveUp is called once, at `giveUpAt` or later, unless the watch was told to forget it. */
  giveUp(): void;
}

/**
 * DeadlineWatch gives up on what it watches once its clock passes each one's `giveUpAt`, with
 * one timer for all of them (armed for the earliest) rather than one each: a script run in flight
 * costs a Set entry, not a timer set and cleared. The timer stays armed when the last one leaves
 * (it fires, finds nothing due and stops), so a run after run one at a time arms it about once
 * per timeout, not once per run.
 */
export class DeadlineWatch {
  private readonly watched = new Set<Watched>();
  /** armedFor is the `giveUpAt` the timer is armed for (Infinity: not armed). */
  private armedFor = Number.POSITIVE_INFINITY;
  private cancel: (() => void) | undefined = undefined;

  constructor(private readonly clock: Clock) {}

  /** size is the number of things watched now. */
  get size(): number {
    return this.watched.size;
  }

  /** add watches `item` until its `giveUpAt` (an infinite one is never given up). */
  add(item: Watched): void {
    if (item.giveUpAt === Number.POSITIVE_INFINITY) return;
    this.watched.add(item);
    if (item.giveUpAt < this.armedFor) this.arm(item.giveUpAt);
  }

  /** forget stops watching `item`: it was answered. */
  forget(item: Watched): void {
    this.watched.delete(item);
  }

  private arm(at: number): void {
    this.cancel?.();
    this.armedFor = at;
    this.cancel = after(this.clock, at - this.clock.now(), this.fire);
  }

  private readonly fire = (): void => {
    this.armedFor = Number.POSITIVE_INFINITY;
    this.cancel = undefined;
    const now = this.clock.now();
    let next = Number.POSITIVE_INFINITY;
    const due: Watched[] = [];
    for (const item of this.watched) {
      if (item.giveUpAt <= now) due.push(item);
      else if (item.giveUpAt < next) next = item.giveUpAt;
    }
    // A timer may fire a little before its clock reads the time it was armed for: the rest wait.
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
    for (const item of due) {
      this.watched.delete(item);
      item.giveUp();
    }
  };
}
