import { isClassName } from "@/lib/schemas/operation-class.schema";
import {
  type DryRunRow,
  LIMIT_SOURCES,
  type LimitSource,
  type Operation,
  USAGE_COUNTERS,
  type UsageRow,
  zeroCounts,
} from "@/lib/vocabulary";
import type { UsageBatch } from "./batch";

// How a minute's counts sit in a Redis hash (one hash per minute): a field per counter of a row,
// "u|<customer>|<plan>|<operation>|<counter index>", and a field per dry-run limit,
// "w|<customer>|<plan>|<operation>|<source>|<count>|<period ms>", each incremented by HINCRBY.

/** Increment is one HINCRBY of a minute's hash. */
export interface Increment {
  startMs: number;
  field: string;
  by: number;
}

/** incrementsOf lists the HINCRBYs that add a batch to the minutes' hashes (zeros left out). */
export function incrementsOf(batch: UsageBatch): Increment[] {
  const out: Increment[] = [];
  for (const row of batch.rows) {
    USAGE_COUNTERS.forEach((counter, index) => {
      const by = row[counter];
      if (by !== 0) {
        const field = `u|${row.customerId}|${row.planId}|${row.operation}|${index}`;
        out.push({ startMs: row.startMs, field, by });
      }
    });
  }
  for (const row of batch.dryRun) {
    const field = `w|${row.customerId}|${row.planId}|${row.operation}|${row.source}|${row.limitCount}|${row.limitPeriodMs}`;
    out.push({ startMs: row.startMs, field, by: row.refused });
  }
  return out;
}

const isOperation = (value: string | undefined): value is Operation => isClassName(value);
const isSource = (value: string | undefined): value is LimitSource =>
  (LIMIT_SOURCES as readonly string[]).includes(value ?? "");
const whole = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isSafeInteger(n) ? n : undefined;
};

/**
 * batchOfHash reads one minute's hash (as HGETALL returns it) back into a batch. Fields it does
 * not understand are skipped (and reported), so one bad field cannot hold a minute back.
 */
export function batchOfHash(
  startMs: number,
  hash: Record<string, string>,
  onBadField: (field: string) => void = () => {},
): UsageBatch {
  const rows = new Map<string, UsageRow>();
  const dryRun: DryRunRow[] = [];
  for (const [field, value] of Object.entries(hash)) {
    const parts = field.split("|");
    const by = whole(value);
    const customerId = whole(parts[1]);
    const planId = whole(parts[2]);
    const operation = parts[3];
    if (by === undefined || customerId === undefined || planId === undefined) {
      onBadField(field);
      continue;
    }
    if (parts[0] === "u" && parts.length === 5 && isOperation(operation)) {
      const counter = USAGE_COUNTERS[whole(parts[4]) ?? -1];
      if (counter === undefined) {
        onBadField(field);
        continue;
      }
      const key = `${customerId}|${planId}|${operation}`;
      let row = rows.get(key);
      if (!row) {
        row = { startMs, customerId, operation, planId, ...zeroCounts() };
        rows.set(key, row);
      }
      row[counter] += by;
      continue;
    }
    const limitCount = whole(parts[5]);
    const limitPeriodMs = whole(parts[6]);
    const source = parts[4];
    if (
      parts[0] === "w" &&
      parts.length === 7 &&
      isOperation(operation) &&
      isSource(source) &&
      limitCount !== undefined &&
      limitPeriodMs !== undefined
    ) {
      dryRun.push({
        startMs,
        customerId,
        operation,
        planId,
        source,
        limitCount,
        limitPeriodMs,
        refused: by,
      });
      continue;
    }
    onBadField(field);
  }
  return { rows: [...rows.values()], dryRun };
}
