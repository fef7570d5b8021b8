import type Database from "better-sqlite3";
import { and, asc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { LimitSource, Operation } from "../../lib/vocabulary";
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

/** UsageTable names a rollup resolution: "minutes", "hours" or "days". */
export type UsageTable = "minutes" | "hours" | "days";

/** DryRunTable names a dry-run rollup resolution: "minutes" or "hours". */
export type DryRunTable = "minutes" | "hours";

const TABLES = { minutes: usageMinutes, hours: usageHours, days: usageDays } as const;
const DRY_RUN_TABLES = { minutes: usageDryRunMinutes, hours: usageDryRunHours } as const;

/** USAGE_STEP_MS is each rollup table's step: a row spans one minute, hour or UTC day. */
export const USAGE_STEP_MS: Readonly<Record<UsageTable, number>> = {
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
};

/** UsageCounts are the additive counters of a rollup row (decisions and tokens). */
export interface UsageCounts {
  allowed: number;
  denied: number;
  unavailable: number;
  tokensRequested: number;
  tokensTaken: number;
}

/** UsageRowValues are one rollup row: its identity and counters. */
export interface UsageRowValues extends UsageCounts {
  startMs: number;
  customerId: number;
  operation: Operation;
  planId: number;
}

/** DryRunRowValues are one dry-run rollup row: its identity and refusals. */
export interface DryRunRowValues {
  startMs: number;
  customerId: number;
  operation: Operation;
  planId: number;
  source: LimitSource;
  limitCount: number;
  limitPeriodMs: number;
  refused: number;
}

/** FOLD_WATERMARK is the setting that holds the hour fold's watermark (ms since the epoch). */
const FOLD_WATERMARK = "usage.folded_through_ms";
/** DAY_FOLD_WATERMARK is the setting that holds the day fold's watermark (ms since the epoch). */
const DAY_FOLD_WATERMARK = "usage.days_folded_through_ms";

/** UPSERT_SQL adds one row's counters to a rollup table (9 parameters, in column order). */
const UPSERT_SQL = (table: string) =>
  `INSERT INTO ${table} (start_ms, customer_id, operation, plan_id, allowed, denied, unavailable,
     tokens_requested, tokens_taken) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (start_ms, customer_id, operation, plan_id) DO UPDATE SET
     allowed = allowed + excluded.allowed, denied = denied + excluded.denied,
     unavailable = unavailable + excluded.unavailable,
     tokens_requested = tokens_requested + excluded.tokens_requested,
     tokens_taken = tokens_taken + excluded.tokens_taken`;

/** DRY_RUN_UPSERT_SQL adds one row's refusals to a dry-run table (8 parameters). */
const DRY_RUN_UPSERT_SQL = (table: string) =>
  `INSERT INTO ${table} (start_ms, customer_id, operation, plan_id, source, limit_count,
     limit_period_ms, refused) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (start_ms, customer_id, operation, source, limit_count, limit_period_ms, plan_id)
   DO UPDATE SET refused = refused + excluded.refused`;

/** TABLE_NAMES are the rollup tables' SQL names, by resolution. */
const TABLE_NAMES: Readonly<Record<UsageTable, string>> = {
  minutes: "usage_minutes",
  hours: "usage_hours",
  days: "usage_days",
};
const DRY_RUN_TABLE_NAMES: Readonly<Record<DryRunTable, string>> = {
  minutes: "usage_dry_run_minutes",
  hours: "usage_dry_run_hours",
};

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

/**
 * upsertUsageRows adds each row's counters to the table's row of the same identity (creating it),
 * additive, so a row written twice counts twice. It runs one prepared statement per row on the
 * database's own connection (the query builder costs more than SQLite here): call it inside a
 * transaction of that database.
 */
export function upsertUsageRows(db: Db, table: UsageTable, rows: readonly UsageRowValues[]): void {
  if (rows.length === 0) return;
  const statement = prepared(db.$client, UPSERT_SQL(TABLE_NAMES[table]));
  for (const r of rows) {
    statement.run(
      r.startMs,
      r.customerId,
      r.operation,
      r.planId,
      r.allowed,
      r.denied,
      r.unavailable,
      r.tokensRequested,
      r.tokensTaken,
    );
  }
}

/**
 * upsertDryRunRows adds each dry-run row's refusals to the table's row of the same identity, on
 * the database's own connection (see upsertUsageRows): inside a transaction of that database.
 */
export function upsertDryRunRows(
  db: Db,
  table: DryRunTable,
  rows: readonly DryRunRowValues[],
): void {
  if (rows.length === 0) return;
  const statement = prepared(db.$client, DRY_RUN_UPSERT_SQL(DRY_RUN_TABLE_NAMES[table]));
  for (const r of rows) {
    statement.run(
      r.startMs,
      r.customerId,
      r.operation,
      r.planId,
      r.source,
      r.limitCount,
      r.limitPeriodMs,
      r.refused,
    );
  }
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
  const day = sql.raw(String(USAGE_STEP_MS.days));
  tx.run(sql`
    INSERT INTO ${usageDays} (start_ms, customer_id, operation, plan_id, allowed, denied,
      unavailable, tokens_requested, tokens_taken)
    SELECT start_ms - start_ms % ${day}, customer_id, operation, plan_id, sum(allowed),
      sum(denied), sum(unavailable), sum(tokens_requested), sum(tokens_taken)
    FROM ${usageHours}
    WHERE start_ms >= ${fromMs} AND start_ms < ${toMs}
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (start_ms, customer_id, operation, plan_id) DO UPDATE SET
      allowed = allowed + excluded.allowed,
      denied = denied + excluded.denied,
      unavailable = unavailable + excluded.unavailable,
      tokens_requested = tokens_requested + excluded.tokens_requested,
      tokens_taken = tokens_taken + excluded.tokens_taken`);
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
  const hour = sql.raw(String(USAGE_STEP_MS.hours));
  tx.run(sql`
    INSERT INTO ${usageHours} (start_ms, customer_id, operation, plan_id, allowed, denied,
      unavailable, tokens_requested, tokens_taken)
    SELECT start_ms - start_ms % ${hour}, customer_id, operation, plan_id, sum(allowed),
      sum(denied), sum(unavailable), sum(tokens_requested), sum(tokens_taken)
    FROM ${usageMinutes}
    WHERE start_ms >= ${fromMs} AND start_ms < ${toMs}
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (start_ms, customer_id, operation, plan_id) DO UPDATE SET
      allowed = allowed + excluded.allowed,
      denied = denied + excluded.denied,
      unavailable = unavailable + excluded.unavailable,
      tokens_requested = tokens_requested + excluded.tokens_requested,
      tokens_taken = tokens_taken + excluded.tokens_taken`);
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

/** UsageFilter narrows a usage query: a time range [fromMs, toMs) and optional dimensions. */
export interface UsageFilter {
  fromMs: number;
  toMs: number;
  customerId?: number;
  planId?: number;
  operation?: Operation;
}

/** UsageGroup names what an aggregate groups by. */
export type UsageGroup = "bucket" | "customer" | "plan" | "operation";

/** UsageAggregate is one group's sums; the grouped-by fields are set, the others 0 or "read". */
export interface UsageAggregate extends UsageCounts {
  bucket: number;
  customerId: number;
  planId: number;
  operation: Operation;
}

function usageWhere(
  t: typeof usageMinutes | typeof usageHours | typeof usageDays,
  f: UsageFilter,
): SQL | undefined {
  return and(
    gte(t.startMs, f.fromMs),
    lt(t.startMs, f.toMs),
    f.customerId === undefined ? undefined : eq(t.customerId, f.customerId),
    f.planId === undefined ? undefined : eq(t.planId, f.planId),
    f.operation === undefined ? undefined : eq(t.operation, f.operation),
  );
}

/**
 * aggregateUsage sums a rollup table's rows that match the filter, grouped by any of: the
 * `bucketMs`-long step their start falls in (`bucket`), customer, plan, operation.
 */
export function aggregateUsage(
  tx: Tx,
  table: UsageTable,
  filter: UsageFilter,
  groupBy: readonly UsageGroup[],
  bucketMs: number = USAGE_STEP_MS[table],
): UsageAggregate[] {
  const t = TABLES[table];
  const step = sql.raw(String(bucketMs));
  const bucket = sql<number>`${t.startMs} - ${t.startMs} % ${step}`;
  const columns = {
    bucket: groupBy.includes("bucket") ? bucket : sql<number>`0`,
    customerId: groupBy.includes("customer") ? t.customerId : sql<number>`0`,
    planId: groupBy.includes("plan") ? t.planId : sql<number>`0`,
    operation: groupBy.includes("operation") ? t.operation : sql<Operation>`'read'`,
    allowed: sql<number>`sum(${t.allowed})`,
    denied: sql<number>`sum(${t.denied})`,
    unavailable: sql<number>`sum(${t.unavailable})`,
    tokensRequested: sql<number>`sum(${t.tokensRequested})`,
    tokensTaken: sql<number>`sum(${t.tokensTaken})`,
  };
  const groups: SQL[] = [];
  if (groupBy.includes("bucket")) groups.push(bucket);
  if (groupBy.includes("customer")) groups.push(sql`${t.customerId}`);
  if (groupBy.includes("plan")) groups.push(sql`${t.planId}`);
  if (groupBy.includes("operation")) groups.push(sql`${t.operation}`);
  const query = tx.select(columns).from(t).where(usageWhere(t, filter));
  return (groups.length > 0 ? query.groupBy(...groups) : query).all() as UsageAggregate[];
}

/** TakenStep is one step's tokens taken by a customer for an operation (plans summed). */
export interface TakenStep {
  customerId: number;
  operation: Operation;
  startMs: number;
  tokensTaken: number;
}

/**
 * listTakenSteps returns, for the customers given, each step's tokens taken per operation,
 * ordered by customer, operation and time: the series the near-limit windows slide over. One
 * pass over the range (minute rows are keyed by time first), a few hundred customers at a time.
 */
export function listTakenSteps(
  tx: Tx,
  table: "minutes" | "hours",
  filter: UsageFilter,
  customerIds: readonly number[],
): TakenStep[] {
  const t = TABLES[table];
  const out: TakenStep[] = [];
  for (let i = 0; i < customerIds.length; i += 500) {
    const some = customerIds.slice(i, i + 500);
    const rows = tx
      .select({
        customerId: t.customerId,
        operation: t.operation,
        startMs: t.startMs,
        tokensTaken: sql<number>`sum(${t.tokensTaken})`,
      })
      .from(t)
      .where(and(usageWhere(t, filter), inArray(t.customerId, some)))
      .groupBy(t.customerId, t.operation, t.startMs)
      .orderBy(asc(t.customerId), asc(t.operation), asc(t.startMs))
      .all();
    for (const row of rows) out.push(row);
  }
  return out;
}

/** PeakBound is an upper bound on a customer's use: its largest step and its total, per operation. */
export interface PeakBound {
  customerId: number;
  operation: Operation;
  maxStepTaken: number;
  totalTaken: number;
}

/**
 * listPeakBounds returns, per customer and operation with traffic in the filter, the most tokens
 * taken in one step and in all: no window of k steps can take more than min(total, k × max).
 */
export function listPeakBounds(
  tx: Tx,
  table: "minutes" | "hours",
  filter: UsageFilter,
): PeakBound[] {
  const t = TABLES[table];
  const perStep = tx
    .select({
      customerId: t.customerId,
      operation: t.operation,
      taken: sql<number>`sum(${t.tokensTaken})`.as("taken"),
    })
    .from(t)
    .where(usageWhere(t, filter))
    .groupBy(t.customerId, t.operation, t.startMs)
    .as("per_step");
  return tx
    .select({
      customerId: perStep.customerId,
      operation: perStep.operation,
      maxStepTaken: sql<number>`max(${perStep.taken})`,
      totalTaken: sql<number>`sum(${perStep.taken})`,
    })
    .from(perStep)
    .groupBy(perStep.customerId, perStep.operation)
    .all();
}

/** DryRunAggregate is one dry-run limit's refusals for one customer over a range. */
export interface DryRunAggregate {
  customerId: number;
  planId: number;
  operation: Operation;
  source: LimitSource;
  limitCount: number;
  limitPeriodMs: number;
  refused: number;
}

/** DryRunFilter narrows dry-run refusals: a time range and optional plan, customer, source. */
export interface DryRunFilter {
  fromMs: number;
  toMs: number;
  planId?: number;
  customerId?: number;
  source?: LimitSource;
}

/** aggregateDryRun sums a dry-run table's refusals per customer, plan, operation and limit. */
export function aggregateDryRun(
  tx: Tx,
  table: DryRunTable,
  filter: DryRunFilter,
): DryRunAggregate[] {
  const t = DRY_RUN_TABLES[table];
  return tx
    .select({
      customerId: t.customerId,
      planId: t.planId,
      operation: t.operation,
      source: t.source,
      limitCount: t.limitCount,
      limitPeriodMs: t.limitPeriodMs,
      refused: sql<number>`sum(${t.refused})`,
    })
    .from(t)
    .where(
      and(
        gte(t.startMs, filter.fromMs),
        lt(t.startMs, filter.toMs),
        filter.planId === undefined ? undefined : eq(t.planId, filter.planId),
        filter.customerId === undefined ? undefined : eq(t.customerId, filter.customerId),
        filter.source === undefined ? undefined : eq(t.source, filter.source),
      ),
    )
    .groupBy(t.customerId, t.planId, t.operation, t.source, t.limitCount, t.limitPeriodMs)
    .all();
}
