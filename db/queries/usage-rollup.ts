// Keeping the usage rollups: additive upserts, the folds and their watermarks, pruning, and the
// Redis claims already written. db/queries/usage.ts reads them.
import type Database from "better-sqlite3";
import { getTableName, lt, sql } from "drizzle-orm";
import { type DryRunRow, USAGE_COUNTERS, type UsageRow } from "../../lib/vocabulary";
import type { Db, Tx } from "../client";
import {
  customers,
  usageClaims,
  usageDays,
  usageDryRunHours,
  usageDryRunMinutes,
  usageHours,
  usageMinutes,
} from "../schema";
import { getSetting, putSetting } from "./operator";
import {
  DRY_RUN_TABLES,
  type DryRunTable,
  USAGE_STEP_MS,
  USAGE_TABLES,
  type UsageTable,
} from "./usage";

/** FOLD_WATERMARK is the setting that holds the hour fold's watermark (ms since the epoch). */
const FOLD_WATERMARK = "usage.folded_through_ms";
/** DAY_FOLD_WATERMARK is the setting that holds the day fold's watermark (ms since the epoch). */
const DAY_FOLD_WATERMARK = "usage.days_folded_through_ms";

/** KEY_COLUMNS are a rollup row's identity, as SQL column names. */
const KEY_COLUMNS = [
  usageMinutes.startMs.name,
  usageMinutes.customerId.name,
  usageMinutes.operation.name,
  usageMinutes.planId.name,
].join(", ");
/** COUNTER_COLUMNS are the SQL names of the USAGE_COUNTERS, in their order. */
const COUNTER_COLUMNS = USAGE_COUNTERS.map((counter) => usageMinutes[counter].name);
/** ADD_COUNTERS is the upsert's update: each counter adds the incoming row's. */
const ADD_COUNTERS = COUNTER_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(", ");

/** UPSERT_SQL adds one row's counters to a rollup table (key, then counters, as parameters). */
const UPSERT_SQL = (table: string) =>
  `INSERT INTO ${table} (${KEY_COLUMNS}, ${COUNTER_COLUMNS.join(", ")})
   VALUES (${["?", "?", "?", "?", ...COUNTER_COLUMNS.map(() => "?")].join(", ")})
   ON CONFLICT (${KEY_COLUMNS}) DO UPDATE SET ${ADD_COUNTERS}`;

/**
 * foldUsage adds the rows of table `from` in [fromMs, toMs) to table `into`, summing each
 * `stepMs`-long step's (minutes into hours, hours into days). The `from` rows stay.
 */
function foldUsage(
  tx: Tx,
  from: typeof usageMinutes | typeof usageHours,
  into: typeof usageHours | typeof usageDays,
  stepMs: number,
  fromMs: number,
  toMs: number,
): void {
  const step = sql.raw(String(stepMs));
  const counters = sql.raw(COUNTER_COLUMNS.join(", "));
  const sums = sql.raw(COUNTER_COLUMNS.map((c) => `sum(${c})`).join(", "));
  tx.run(sql`
    INSERT INTO ${into} (${sql.raw(KEY_COLUMNS)}, ${counters})
    SELECT start_ms - start_ms % ${step}, customer_id, operation, plan_id, ${sums}
    FROM ${from}
    WHERE start_ms >= ${fromMs} AND start_ms < ${toMs}
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (${sql.raw(KEY_COLUMNS)}) DO UPDATE SET ${sql.raw(ADD_COUNTERS)}`);
}

/** DRY_RUN_UPSERT_SQL adds one row's refusals to a dry-run table (8 parameters). */
const DRY_RUN_UPSERT_SQL = (table: string) =>
  `INSERT INTO ${table} (start_ms, customer_id, operation, plan_id, source, limit_count,
     limit_period_ms, refused) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (start_ms, customer_id, operation, source, limit_count, limit_period_ms, plan_id)
   DO UPDATE SET refused = refused + excluded.refused`;

/** statements caches each connection's prepared upserts (a flush writes thousands of rows). */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function prepared(client: Database.Database, text: string): Database.Statement {
  let own = statements.get(client);
  if (!own) {
    own = new Map();
    statements.set(client, own);
  }
  let statement = own.get(text);
  if (!statement) {
    statement = client.prepare(text);
    own.set(text, statement);
  }
  return statement;
}

/** RollupKey is a rollup row's identity: its step's start, customer, operation and plan. */
type RollupKey = Pick<UsageRow, "startMs" | "customerId" | "operation" | "planId">;

/**
 * upsertEach runs the upsert `text` once per row, on the database's own connection (the query
 * builder costs more than SQLite here), with the row's key and then `values(row)` as parameters.
 */
function upsertEach<R extends RollupKey>(
  db: Db,
  text: string,
  rows: readonly R[],
  values: (row: R) => unknown[],
): void {
  if (rows.length === 0) return;
  const statement = prepared(db.$client, text);
  for (const r of rows) statement.run(r.startMs, r.customerId, r.operation, r.planId, ...values(r));
}

/**
 * upsertUsageRows adds each row's counters to the table's row of the same identity (creating it),
 * additive, so a row written twice counts twice. It runs one prepared statement per row on the
 * database's own connection: call it inside a transaction of that database.
 */
export function upsertUsageRows(db: Db, table: UsageTable, rows: readonly UsageRow[]): void {
  upsertEach(db, UPSERT_SQL(getTableName(USAGE_TABLES[table])), rows, (r) =>
    USAGE_COUNTERS.map((c) => r[c]),
  );
}

/**
 * upsertDryRunRows adds each dry-run row's refusals to the table's row of the same identity, on
 * the database's own connection (see upsertUsageRows): inside a transaction of that database.
 */
export function upsertDryRunRows(db: Db, table: DryRunTable, rows: readonly DryRunRow[]): void {
  upsertEach(db, DRY_RUN_UPSERT_SQL(getTableName(DRY_RUN_TABLES[table])), rows, (r) => [
    r.source,
    r.limitCount,
    r.limitPeriodMs,
    r.refused,
  ]);
}

/** listCustomerIds returns the id of every stored customer. */
export function listCustomerIds(tx: Tx): Set<number> {
  return new Set(
    tx
      .select({ id: customers.id })
      .from(customers)
      .all()
      .map((r) => r.id),
  );
}

/**
 * getFoldWatermark returns the fold's watermark (ms): every hour before it is complete in the
 * hour tables, and minutes from it on are only in the minute tables. Undefined before the first
 * fold.
 */
export function getFoldWatermark(tx: Tx): number | undefined {
  const value = getSetting(tx, FOLD_WATERMARK);
  return value === undefined ? undefined : Number(value);
}

/** setFoldWatermark stores the fold's watermark (ms). */
export function setFoldWatermark(tx: Tx, ms: number): void {
  putSetting(tx, FOLD_WATERMARK, String(ms));
}

/**
 * getDayFoldWatermark returns the day fold's watermark (ms): every UTC day before it is complete
 * in usage_days. Undefined before the first day fold.
 */
export function getDayFoldWatermark(tx: Tx): number | undefined {
  const value = getSetting(tx, DAY_FOLD_WATERMARK);
  return value === undefined ? undefined : Number(value);
}

/** setDayFoldWatermark stores the day fold's watermark (ms). */
export function setDayFoldWatermark(tx: Tx, ms: number): void {
  putSetting(tx, DAY_FOLD_WATERMARK, String(ms));
}

/** oldestUsageHour returns the start (ms) of the oldest hour row, or undefined if none. */
export function oldestUsageHour(tx: Tx): number | undefined {
  return (
    tx
      .select({ ms: sql<number | null>`min(${usageHours.startMs})` })
      .from(usageHours)
      .get()?.ms ?? undefined
  );
}

/** foldHoursIntoDays adds the hour rows in [fromMs, toMs) to the day rows, summing each day's. */
export function foldHoursIntoDays(tx: Tx, fromMs: number, toMs: number): void {
  foldUsage(tx, usageHours, usageDays, USAGE_STEP_MS.days, fromMs, toMs);
}

/** oldestUsageMinute returns the start (ms) of the oldest minute row, or undefined if none. */
export function oldestUsageMinute(tx: Tx): number | undefined {
  const minutes = tx
    .select({ ms: sql<number | null>`min(${usageMinutes.startMs})` })
    .from(usageMinutes)
    .get()?.ms;
  const dryRun = tx
    .select({ ms: sql<number | null>`min(${usageDryRunMinutes.startMs})` })
    .from(usageDryRunMinutes)
    .get()?.ms;
  const found = [minutes, dryRun].filter((v): v is number => typeof v === "number");
  return found.length > 0 ? Math.min(...found) : undefined;
}

/**
 * foldMinutesIntoHours adds the minute rows in [fromMs, toMs) to the hour rows (both tables,
 * counts and dry-run refusals), summing each hour's minutes. The minute rows stay.
 */
export function foldMinutesIntoHours(tx: Tx, fromMs: number, toMs: number): void {
  foldUsage(tx, usageMinutes, usageHours, USAGE_STEP_MS.hours, fromMs, toMs);
  const hour = sql.raw(String(USAGE_STEP_MS.hours));
  tx.run(sql`
    INSERT INTO ${usageDryRunHours} (start_ms, customer_id, operation, plan_id, source,
      limit_count, limit_period_ms, refused)
    SELECT start_ms - start_ms % ${hour}, customer_id, operation, plan_id, source, limit_count,
      limit_period_ms, sum(refused)
    FROM ${usageDryRunMinutes}
    WHERE start_ms >= ${fromMs} AND start_ms < ${toMs}
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (start_ms, customer_id, operation, source, limit_count, limit_period_ms, plan_id)
    DO UPDATE SET refused = refused + excluded.refused`);
}

/** pruneUsage deletes rows that start before the given instants (ms) and returns how many. */
export function pruneUsage(
  tx: Tx,
  before: { minutesMs: number; hoursMs: number },
): { minutes: number; hours: number; days: number } {
  const minutes =
    tx.delete(usageMinutes).where(lt(usageMinutes.startMs, before.minutesMs)).run().changes +
    tx.delete(usageDryRunMinutes).where(lt(usageDryRunMinutes.startMs, before.minutesMs)).run()
      .changes;
  const hours =
    tx.delete(usageHours).where(lt(usageHours.startMs, before.hoursMs)).run().changes +
    tx.delete(usageDryRunHours).where(lt(usageDryRunHours.startMs, before.hoursMs)).run().changes;
  // Day rows go with the hours they were folded from: a day once its last hour has gone.
  const days = tx
    .delete(usageDays)
    .where(lt(usageDays.startMs, before.hoursMs - USAGE_STEP_MS.days + 1))
    .run().changes;
  return { minutes, hours, days };
}

/**
 * recordClaim marks a Redis claim as written (in the transaction that writes its rows) and
 * returns false when it was written before: its rows must not be added again.
 */
export function recordClaim(tx: Tx, claimKey: string, now: number): boolean {
  return (
    tx.insert(usageClaims).values({ claimKey, appliedAt: now }).onConflictDoNothing().run()
      .changes === 1
  );
}

/** pruneClaims forgets the claims written before `beforeMs`. */
export function pruneClaims(tx: Tx, beforeMs: number): void {
  tx.delete(usageClaims).where(lt(usageClaims.appliedAt, beforeMs)).run();
}
