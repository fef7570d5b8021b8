import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";
import {
  LIMIT_SOURCES,
  snakeCounterName,
  USAGE_COUNTERS,
  type UsageCounter,
} from "../../lib/vocabulary";
import { customers } from "./customers";

// The columns the usage rollup tables share: the minute, hour and day tables hold the same
// counters at three resolutions, and the dry-run twins (minutes, hours) are one definition at
// two (dryRunTable). Each table keeps its own drizzle file.

/** counterColumn is a usage counter's column: a whole number, 0 until a row adds to it. */
const counterColumn = (name: string) => integer(name).notNull().default(0);

/** counterColumns are a rollup row's counters, a column per USAGE_COUNTERS entry. */
function counterColumns() {
  return Object.fromEntries(
    USAGE_COUNTERS.map((counter) => [counter, counterColumn(snakeCounterName(counter))]),
  ) as Record<UsageCounter, ReturnType<typeof counterColumn>>;
}

/** rollupKeyColumns are the key parts every rollup row has: its time, customer, operation, plan. */
function rollupKeyColumns() {
  return {
    /** startMs is the start of the row's minute, hour or day, in ms since the epoch (UTC). */
    startMs: integer("start_ms").notNull(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    /** operation is the class's name (no foreign key: history outlives a class). */
    operation: text("operation").notNull(),
    /** planId is the customer's plan when it was decided (no foreign key: plans may go). */
    planId: integer("plan_id").notNull(),
  };
}

/** usageCountColumns are one rollup row's key parts and counters (decisions and tokens). */
export function usageCountColumns() {
  return { ...rollupKeyColumns(), ...counterColumns() };
}

/** dryRunCountColumns are one dry-run row's key parts and its count of would-be refusals. */
function dryRunCountColumns() {
  return {
    ...rollupKeyColumns(),
    /** source says whether the dry-run limit was the plan's or the customer's override's. */
    source: text("source", { enum: LIMIT_SOURCES }).notNull(),
    limitCount: integer("limit_count").notNull(),
    limitPeriodMs: integer("limit_period_ms").notNull(),
    /** refused counts the admitted decisions this limit would have refused. */
    refused: integer("refused").notNull().default(0),
  };
}

type Columns = ReturnType<typeof usageCountColumns>;
type DryRunColumns = ReturnType<typeof dryRunCountColumns>;
type Built<C> = Record<keyof C, AnySQLiteColumn>;

/**
 * usageChecks are the CHECK constraints of a rollup table whose rows each span `stepMs`. The
 * counters are non-negative, but for `tooLarge`, which has no CHECK of its own: drizzle-kit would
 * rebuild the tables for one, copying the column before it exists (see
 * test/db/migrations.test.ts); only additive upserts write it.
 */
export function usageChecks(table: string, t: Built<Columns>, stepMs: number) {
  return [
    check(`${table}_aligned`, sql`${t.startMs} % ${sql.raw(String(stepMs))} = 0`),
    check(
      `${table}_counts`,
      sql`${t.allowed} >= 0 AND ${t.denied} >= 0 AND ${t.unavailable} >= 0 AND ${t.tokensRequested} >= 0 AND ${t.tokensTaken} >= 0`,
    ),
  ];
}

/** dryRunChecks are the CHECK constraints of a dry-run rollup table whose rows span `stepMs`. */
function dryRunChecks(table: string, t: Built<DryRunColumns>, stepMs: number) {
  return [
    check(`${table}_source`, sql`${t.source} IN ('plan', 'override')`),
    check(`${table}_aligned`, sql`${t.startMs} % ${sql.raw(String(stepMs))} = 0`),
    check(`${table}_refused`, sql`${t.refused} >= 0`),
  ];
}

/**
 * dryRunTable defines a dry-run rollup table named `name` whose rows span `stepMs`: the dry-run
 * columns, keyed by time, customer, operation, the limit (its source, count and period) and
 * plan, indexed by customer and time (`<name>_customer`), with dryRunChecks.
 */
export function dryRunTable<N extends string>(name: N, stepMs: number) {
  return sqliteTable(name, dryRunCountColumns(), (t) => [
    primaryKey({
      columns: [
        t.startMs,
        t.customerId,
        t.operation,
        t.source,
        t.limitCount,
        t.limitPeriodMs,
        t.planId,
      ],
    }),
    index(`${name}_customer`).on(t.customerId, t.startMs),
    ...dryRunChecks(name, t, stepMs),
  ]);
}
