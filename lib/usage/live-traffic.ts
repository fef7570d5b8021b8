import type { LiveScope } from "@/lib/schemas/traffic-answer.schema";
import type {
  TakenSecond,
  TrafficFilter,
  TrafficLog,
  TrafficPoint,
  TrafficTotals,
} from "./traffic-log";

/** LiveScope says whose decisions a live view counts (its definition: the traffic answer's schema). */
export type { LiveScope };

/** LiveTraffic is the per-second live view the overview and the inspector poll. */
export interface LiveTraffic {
  /** points returns one point per second for the last `seconds` seconds, oldest first. */
  points(
    now: number,
    seconds: number,
    filter?: TrafficFilter,
  ): Promise<{ points: TrafficPoint[]; scope: LiveScope }>;
  /** totals returns each customer's allowed and denied decisions over the last `seconds`. */
  totals(
    now: number,
    seconds: number,
  ): Promise<{ totals: Map<number, TrafficTotals>; scope: LiveScope }>;
  /** totalsOf returns `totals` for the given customers only, zero for those without traffic. */
  totalsOf(
    now: number,
    seconds: number,
    customerIds: readonly number[],
  ): Promise<{ totals: Map<number, TrafficTotals>; scope: LiveScope }>;
  /**
   * takenSeconds returns the given customers' seconds with decisions over the last `seconds`
   * (tokens taken, and when in each second), oldest first, keyed "<customerId>|<operation>".
   */
  takenSeconds(
    now: number,
    seconds: number,
    customerIds: readonly number[],
  ): Promise<{ seconds: Map<string, TakenSecond[]>; scope: LiveScope }>;
}

/** LocalLiveTraffic is this instance's traffic log: the whole picture without Redis. */
export class LocalLiveTraffic implements LiveTraffic {
  constructor(private readonly log: TrafficLog) {}

  async points(now: number, seconds: number, filter: TrafficFilter = {}) {
    return { points: this.log.points(now, seconds, filter), scope: "instance" as const };
  }

  async totals(now: number, seconds: number) {
    return { totals: this.log.totals(now, seconds), scope: "instance" as const };
  }

  async totalsOf(now: number, seconds: number, customerIds: readonly number[]) {
    return { totals: this.log.totalsOf(now, seconds, customerIds), scope: "instance" as const };
  }

  async takenSeconds(now: number, seconds: number, customerIds: readonly number[]) {
    return {
      seconds: this.log.takenSeconds(now, seconds, customerIds),
      scope: "instance" as const,
    };
  }
}
