import type { ServiceTokenRefusal } from "@/lib/vocabulary";

/** REFUSAL_MINUTE_MS is the width of one slot of the refusal counts: one minute. */
const REFUSAL_MINUTE_MS = 60_000;
/** REFUSAL_WINDOW_MINUTES is how many minute slots make "the last hour": 60, the current one included. */
export const REFUSAL_WINDOW_MINUTES = 60;

/** RefusalsLastHour are the refused decision calls of the last hour: per token, and with no token. */
export interface RefusalsLastHour {
  /** byToken counts the calls refused per token id: revoked tokens, and live ones lacking a scope. */
  byToken: ReadonlyMap<number, number>;
  /** unknown counts the calls with a token that names none (never existed) or with no token. */
  unknown: number;
}

/** MinuteCounts are one key's counts in a ring of minute slots, each slot stamped with its minute. */
interface MinuteCounts {
  minutes: number[];
  counts: number[];
}

/** UNKNOWN is the key of the calls no token can be named for. */
const UNKNOWN = "unknown";

/**
 * ServiceTokenRefusals counts the decision calls refused for their service token, in memory: a
 * ring of one-minute slots per token (revoked tokens, and live ones lacking the scope) and one
 * for calls with no known token, so "the last hour" (the current minute and the 59 before it,
 * on the clock passed in, ms since the epoch) costs no timer and a fixed memory per token.
 * Each refusal is also handed to `counted` (the metrics' running total, by reason).
 */
export class ServiceTokenRefusals {
  private readonly byKey = new Map<number | typeof UNKNOWN, MinuteCounts>();

  constructor(private readonly counted: (reason: ServiceTokenRefusal) => void = () => {}) {}

  /** note counts one refused call at `now` (ms), against token `tokenId` when it is known. */
  note(reason: ServiceTokenRefusal, tokenId: number | undefined, now: number): void {
    this.counted(reason);
    const key = tokenId ?? UNKNOWN;
    let ring = this.byKey.get(key);
    if (!ring) {
      ring = {
        minutes: new Array<number>(REFUSAL_WINDOW_MINUTES).fill(-1),
        counts: new Array<number>(REFUSAL_WINDOW_MINUTES).fill(0),
      };
      this.byKey.set(key, ring);
    }
    const minute = Math.floor(now / REFUSAL_MINUTE_MS);
    const slot = minute % REFUSAL_WINDOW_MINUTES;
    if (ring.minutes[slot] !== minute) {
      ring.minutes[slot] = minute;
      ring.counts[slot] = 0;
    }
    ring.counts[slot] = (ring.counts[slot] ?? 0) + 1;
  }

  /**
   * lastHour counts the refusals of the last hour at `now` (ms): the current minute and the 59
   * before it. Keys with none left are forgotten.
   */
  lastHour(now: number): RefusalsLastHour {
    const current = Math.floor(now / REFUSAL_MINUTE_MS);
    const byToken = new Map<number, number>();
    let unknown = 0;
    for (const [key, ring] of this.byKey) {
      let total = 0;
      for (let i = 0; i < REFUSAL_WINDOW_MINUTES; i++) {
        const minute = ring.minutes[i] as number;
        if (minute > current - REFUSAL_WINDOW_MINUTES && minute <= current) {
          total += ring.counts[i] as number;
        }
      }
      if (total === 0) {
        // Nothing in the window: the key costs no memory until its next refusal.
        if (ring.minutes.every((minute) => minute <= current)) this.byKey.delete(key);
        continue;
      }
      if (key === UNKNOWN) unknown = total;
      else byToken.set(key, total);
    }
    return { byToken, unknown };
  }
}
