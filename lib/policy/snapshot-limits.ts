import { type AnyLimit, type Limit, limit, type Quota, quota } from "@/lib/limiter";
import type { QuotaPeriod } from "@/lib/vocabulary";

/**
 * zones remembers each policy quota's time zone as its row names it (the name grants are keyed
 * by, see grantKey), which may differ from the Calendar's canonical id for a link.
 */
const zones = new WeakMap<Quota, string>();

/** quotaZone is the time zone a policy quota's row names (its Calendar's id for any other). */
export function quotaZone(q: Quota): string {
  return zones.get(q) ?? q.timeZone;
}

/** StoredLimit is a stored limit of either kind: a bucket's (`periodMs`) or a quota's (`period`). */
export type StoredLimitRow =
  | { count: number; periodMs: number }
  | { count: number; period: QuotaPeriod; timeZone?: string };

/**
 * LimitMaker makes the limiter's limits of stored rows, each once per (row, anchor day): equal
 * rows share one Limit or Quota (a Quota's constructor finds its calendar by a string it builds,
 * so it is built once per snapshot, never per decision).
 */
export interface LimitMaker {
  /** row is the limit of a stored row; a monthly quota's months start on `anchorDay` (1..31). */
  row(row: StoredLimitRow, anchorDay: number): AnyLimit;
  /** make is the quota of `count` per `period` in `timeZone` (a row's name), months from `anchorDay`. */
  make(count: number, period: QuotaPeriod, timeZone: string, anchorDay: number): Quota;
}

/** limitMaker returns a LimitMaker with its own cache (one per snapshot). */
export function limitMaker(): LimitMaker {
  const buckets = new Map<string, Limit>();
  const quotas = new Map<string, Quota>();
  const make = (count: number, period: QuotaPeriod, timeZone: string, anchorDay: number) => {
    const anchor = period === "month" ? anchorDay : 1;
    const id = `${count}|${period}|${timeZone}|${anchor}`;
    let made = quotas.get(id);
    if (!made) {
      made = quota(count, period, { timeZone, anchorDay: anchor });
      zones.set(made, timeZone);
      quotas.set(id, made);
    }
    return made;
  };
  return {
    make,
    row(row, anchorDay) {
      if ("period" in row) return make(row.count, row.period, row.timeZone ?? "UTC", anchorDay);
      const id = `${row.count}/${row.periodMs}`;
      let made = buckets.get(id);
      if (!made) {
        made = limit(row.count, row.periodMs);
        buckets.set(id, made);
      }
      return made;
    },
  };
}
