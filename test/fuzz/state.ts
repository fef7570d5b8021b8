import type { Runtime } from "@/lib/runtime";
import { DEFAULT_CLASSES, type Operation } from "@/lib/vocabulary";

/** BucketState is one bucket as a peek sees it: its limit, tokens left and wait. */
interface BucketState {
  limit: string;
  remaining: number;
  retryAfterMs: number;
}

/**
 * StateSnapshot is everything a refused request must leave as it was: the rows of every table
 * (sorted, as JSON lines), the number of buckets the limiter holds, and each customer's read
 * and write buckets as a peek sees them.
 */
export interface StateSnapshot {
  tables: Map<string, string[]>;
  bucketCount: number;
  /** buckets by "customerId:operation". */
  buckets: Map<string, BucketState[]>;
}

function cell(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/**
 * takeSnapshot reads the state without changing it: SELECTs only, and peeks, which neither take
 * a token nor create a bucket (the limiter's size is read before them and checked after).
 */
export async function takeSnapshot(runtime: Runtime): Promise<StateSnapshot> {
  const tables = new Map<string, string[]>();
  const names = runtime.sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  for (const name of names) {
    const rows = runtime.sqlite
      .prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`)
      .raw()
      .all();
    tables.set(name, rows.map((row) => JSON.stringify(row, cell)).sort());
  }
  const bucketCount = runtime.limiter.size;
  const buckets = new Map<string, BucketState[]>();
  const now = runtime.clock.now();
  for (const customer of runtime.policy.snapshot.byId.values()) {
    for (const operation of DEFAULT_CLASSES) {
      const { details } = await runtime.decisions.peek({ customer, operation, now });
      buckets.set(
        `${customer.id}:${operation}`,
        details.buckets.map((b) => ({
          limit: b.limit.id,
          remaining: b.tokensRemaining,
          retryAfterMs: b.retryAfterMs,
        })),
      );
    }
  }
  if (runtime.limiter.size !== bucketCount) throw new Error("Peeking created a bucket");
  return { tables, bucketCount, buckets };
}

/** Change names one thing that differs between two snapshots, with what it was and became. */
export interface Change {
  what: string;
  detail: string;
}

function preview(lines: string[] | undefined): string {
  if (!lines || lines.length === 0) return "none";
  const first = lines[0] as string;
  return `${lines.length} like ${first.length > 160 ? `${first.slice(0, 160)}…` : first}`;
}

/** changesBetween lists every table, bucket count and bucket that differs. */
export function changesBetween(before: StateSnapshot, after: StateSnapshot): Change[] {
  const changes: Change[] = [];
  for (const name of new Set([...before.tables.keys(), ...after.tables.keys()])) {
    const was = before.tables.get(name) ?? [];
    const is = after.tables.get(name) ?? [];
    if (was.join("\n") === is.join("\n")) continue;
    const gone = was.filter((row) => !is.includes(row));
    const added = is.filter((row) => !was.includes(row));
    changes.push({
      what: `table ${name}`,
      detail: `rows gone: ${preview(gone)}; rows added: ${preview(added)}`,
    });
  }
  if (before.bucketCount !== after.bucketCount) {
    changes.push({
      what: "bucket count",
      detail: `${before.bucketCount} -> ${after.bucketCount}`,
    });
  }
  for (const key of new Set([...before.buckets.keys(), ...after.buckets.keys()])) {
    const was = JSON.stringify(before.buckets.get(key) ?? null);
    const is = JSON.stringify(after.buckets.get(key) ?? null);
    if (was !== is) changes.push({ what: `buckets ${key}`, detail: `${was} -> ${is}` });
  }
  return changes;
}

/** rowsAdded lists the rows (as JSON lines) that are in `after` but not in `before`. */
export function rowsAdded(
  before: StateSnapshot,
  after: StateSnapshot,
): { table: string; row: string }[] {
  const added: { table: string; row: string }[] = [];
  for (const [table, rows] of after.tables) {
    const was = new Set(before.tables.get(table) ?? []);
    for (const row of rows) if (!was.has(row)) added.push({ table, row });
  }
  return added;
}

/**
 * isChargeOf says whether the only change is `cost` tokens taken from every bucket of one
 * customer's operation (its buckets existed or were created by that decision).
 */
export function isChargeOf(
  before: StateSnapshot,
  after: StateSnapshot,
  customerId: number,
  operation: Operation,
  cost: number,
): boolean {
  const key = `${customerId}:${operation}`;
  const changes = changesBetween(before, after);
  if (
    changes.some(
      (c) =>
        c.what.startsWith("table") || (c.what.startsWith("buckets") && c.what !== `buckets ${key}`),
    )
  )
    return false;
  const was = before.buckets.get(key) ?? [];
  const is = after.buckets.get(key) ?? [];
  return (
    was.length > 0 &&
    was.length === is.length &&
    was.every((b, i) => is[i]?.limit === b.limit && is[i]?.remaining === b.remaining - cost)
  );
}
