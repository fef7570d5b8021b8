/**
 * DRIFT_PER_MS bounds how fast this instance's clock and a Redis server's may drift apart: 1 ms
 * per second (1,000 ppm), twice the fastest slew NTP applies to one clock.
 */
export const DRIFT_PER_MS = 1e-3;

/**
 * MAX_OFFSET_ERROR_MS is the largest error an estimate may have when a deadline is computed from
 * it; past it (after about 25 s without a reply) the clocks are compared again first.
 */
export const MAX_OFFSET_ERROR_MS = 25;

/**
 * REDIS_RESOLUTION_MS is how finely the decision script reads Redis's clock: whole ms, so a
 * reading `r` stands for a time in [r, r + 1).
 */
export const REDIS_RESOLUTION_MS = 1;

/**
 * OffsetEstimate is Redis's clock minus this instance's, in ms: the true offset lies within
 * `errorMs` of `offsetMs` (errorMs >= 0).
 */
export interface OffsetEstimate {
  offsetMs: number;
  errorMs: number;
}

/**
 * ClockOffset estimates the offset between this instance's clock and one Redis server's (Redis's
 * time minus ours, ms) from replies that carry Redis's time, with a bound on its error, NTP-style
 * (RFC 5905's on-wire offset, with its error bounded by the round trip instead of averaged).
 *
 * A reply is an interval: Redis read its clock (reading `r`, true time in [r, r + resolution))
 * after the command left (our time `sentAt`) and before the reply was read (`receivedAt`), so
 * the offset lies in [r - receivedAt, r + resolution - sentAt], however the round trip split
 * between the two ways. The estimate keeps the intersection of those intervals: its width is at
 * most the narrowest one's, so the fastest round trip seen (the minimum RTT) bounds the error.
 * As it ages it widens by DRIFT_PER_MS on each side, so an old interval cannot claim more than
 * the clocks guarantee. An interval that misses the kept one means a clock stepped: the estimate
 * starts again from it. It holds three numbers, however many replies it sees.
 */
export class ClockOffset {
  /** lo and hi bound the offset at our time `at` (NaN: nothing learned yet). */
  private lo = Number.NaN;
  private hi = Number.NaN;
  private at = Number.NaN;
  /** restarts counts the estimates dropped because a reply contradicted them (a clock step). */
  restarts = 0;

  /**
   * learn narrows the estimate with a reply: Redis read `redisMs` (on a grid of `resolutionMs`)
   * between our `sentAt` and `receivedAt` (ms on this instance's clock). Readings that cannot
   * be an interval (NaN, or received before sent) are ignored.
   */
  learn(sentAt: number, receivedAt: number, redisMs: number, resolutionMs = REDIS_RESOLUTION_MS) {
    if (!(receivedAt >= sentAt) || !Number.isFinite(redisMs) || !Number.isFinite(sentAt)) return;
    // The interval holds at every time in [sentAt, receivedAt]; refer it to receivedAt.
    const spread = DRIFT_PER_MS * (receivedAt - sentAt);
    const lo = redisMs - receivedAt - spread;
    const hi = redisMs + resolutionMs - sentAt + spread;
    if (Number.isNaN(this.at) || receivedAt < this.at) {
      this.set(lo, hi, receivedAt);
      return;
    }
    const aged = DRIFT_PER_MS * (receivedAt - this.at);
    const keptLo = this.lo - aged;
    const keptHi = this.hi + aged;
    if (lo > keptHi || hi < keptLo) {
      this.restarts++;
      this.set(lo, hi, receivedAt);
      return;
    }
    this.set(Math.max(lo, keptLo), Math.min(hi, keptHi), receivedAt);
  }

  /**
   * estimate is the offset as it may be at our time `at` (ms): the kept interval widened by the
   * drift since it was learned; undefined before the first reply.
   */
  estimate(at: number): OffsetEstimate | undefined {
    if (Number.isNaN(this.at)) return undefined;
    const aged = DRIFT_PER_MS * Math.abs(at - this.at);
    const lo = this.lo - aged;
    const hi = this.hi + aged;
    return { offsetMs: (lo + hi) / 2, errorMs: (hi - lo) / 2 };
  }

  /** forget drops the estimate: the next one starts from the next reply. */
  forget(): void {
    this.set(Number.NaN, Number.NaN, Number.NaN);
  }

  private set(lo: number, hi: number, at: number): void {
    this.lo = lo;
    this.hi = hi;
    this.at = at;
  }
}

/**
 * DeadlineWindow is when a script run must start by Redis's clock (`redisDeadline`, ms) for a
 * deadline of ours, and when we may stop waiting for it (`giveUpAt`, ms on our clock).
 */
export interface DeadlineWindow {
  redisDeadline: number;
  giveUpAt: number;
}

/**
 * deadlineWindow converts `localDeadline` (ms on our clock) into Redis's clock with `estimate`,
 * and says how long to wait: the script refuses to run once Redis reads a time (whole ms) above
 * `redisDeadline`, which on our clock can be as late as `localDeadline + errorMs + resolution`;
 * `giveUpAt` is past that, so a script that has neither answered nor run by then never takes
 * anything. An infinite deadline stays infinite.
 */
export function deadlineWindow(localDeadline: number, estimate: OffsetEstimate): DeadlineWindow {
  if (localDeadline === Number.POSITIVE_INFINITY) {
    return { redisDeadline: localDeadline, giveUpAt: localDeadline };
  }
  // One ms more than the bound covers the rounding of the sums (a few ulps at 2^41 ms).
  const margin = 1;
  return {
    redisDeadline: localDeadline + estimate.offsetMs,
    giveUpAt: localDeadline + estimate.errorMs + REDIS_RESOLUTION_MS + margin,
  };
}
