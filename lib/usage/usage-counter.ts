import {
  COUNTER_OF_OUTCOME,
  type DryRunRow,
  decisionsOf,
  type LimitShape,
  type LimitSource,
  type Operation,
  USAGE_COUNTERS,
  USAGE_OUTCOMES,
  type UsageOutcome,
  type UsageRow,
  zeroCounts,
} from "@/lib/vocabulary";
import { mergeBatches, type UsageBatch } from "./batch";
import { MINUTE_MS } from "./time";

/**
 * UsageRecorder is what deciding needs of the usage rollups: two counters to bump (UsageCounter's
 * `record` and `recordDryRun`, whose parameter lists are the ones every recorder takes). Every
 * decision of the app reaches it through `decide()`.
 */
export type UsageRecorder = Pick<UsageCounter, "record" | "recordDryRun">;

/** FIELDS per operation: one per usage counter, in the order of USAGE_COUNTERS. */
const FIELDS = USAGE_COUNTERS.length;
/** SLOT_OF_OUTCOME is where each outcome's count sits among an operation's fields. */
const SLOT_OF_OUTCOME = Object.fromEntries(
  USAGE_OUTCOMES.map((o) => [o, USAGE_COUNTERS.indexOf(COUNTER_OF_OUTCOME[o])]),
) as Readonly<Record<UsageOutcome, number>>;
/** REQUESTED_SLOT and TAKEN_SLOT are where an operation's tokens sit among its fields. */
const REQUESTED_SLOT = USAGE_COUNTERS.indexOf("tokensRequested");
const TAKEN_SLOT = USAGE_COUNTERS.indexOf("tokensTaken");
/** EVICT_AFTER_DRAINS: a customer idle for this many drains gives its cell back. */
const EVICT_AFTER_DRAINS = 12;
/** MAX_FREE_CELLS bounds the cells kept for reuse. */
const MAX_FREE_CELLS = 4_096;

interface DryRunTally {
  operation: Operation;
  source: LimitSource;
  count: number;
  periodMs: number;
  refused: number;
}

/** Cell holds one customer's counts for one minute and plan, for every operation class. */
class Cell {
  customerId = 0;
  planId = 0;
  startMs = -1;
  /** counts: [read: USAGE_COUNTERS in order, write: the same], the default classes inline. */
  readonly counts = new Float64Array(2 * FIELDS);
  /** others hold the other classes' counts (USAGE_COUNTERS in order), made on first use, reused. */
  readonly others = new Map<Operation, Float64Array<ArrayBuffer>>();
  readonly dryRun: DryRunTally[] = [];
  /** used is true once the cell counted something since it was last drained. */
  used = false;
  idleDrains = 0;

  /** other returns the counts of a class other than read and write, made on its first use. */
  other(operation: Operation): Float64Array<ArrayBuffer> {
    let counts = this.others.get(operation);
    if (!counts) {
      counts = new Float64Array(FIELDS);
      this.others.set(operation, counts);
    }
    return counts;
  }

  reset(customerId: number, planId: number, startMs: number): void {
    this.customerId = customerId;
    this.planId = planId;
    this.startMs = startMs;
    this.counts.fill(0);
    for (const counts of this.others.values()) counts.fill(0);
    this.dryRun.length = 0;
    this.used = false;
    this.idleDrains = 0;
  }
}

/**
 * UsageCounter counts decisions in memory, per minute, customer, plan and operation, until a
 * flush drains them. A decision costs a map lookup by customer id and a few increments of a
 * typed array: no allocation, except a cell when a customer's minute (or plan) changes, and
 * those are reused. Decisions may arrive out of order across a minute's edge (an async store
 * answers late): the earlier minute gets a cell of its own, and `drain` sums rows that meet.
 */
export class UsageCounter {
  private readonly current = new Map<number, Cell>();
  private sealed: Cell[] = [];
  private readonly free: Cell[] = [];

  /**
   * record counts one decision at `now` (ms since the epoch) for a customer, its plan and an
   * operation: its outcome, the tokens it asked for (0 for a "too_large" one: see
   * USAGE_OUTCOMES) and the tokens it took.
   */
  record(
    customerId: number,
    planId: number,
    operation: Operation,
    outcome: UsageOutcome,
    tokensRequested: number,
    tokensTaken: number,
    now: number,
  ): void {
    const cell = this.cellFor(customerId, planId, now);
    let counts = cell.counts;
    let base = 0;
    if (operation === "write") base = FIELDS;
    else if (operation !== "read") counts = cell.other(operation);
    const slot = base + SLOT_OF_OUTCOME[outcome];
    counts[slot] = (counts[slot] as number) + 1;
    counts[base + REQUESTED_SLOT] = (counts[base + REQUESTED_SLOT] as number) + tokensRequested;
    counts[base + TAKEN_SLOT] = (counts[base + TAKEN_SLOT] as number) + tokensTaken;
    cell.used = true;
  }

  /** recordDryRun counts one admitted decision that the dry-run `limit` would have refused. */
  recordDryRun(
    customerId: number,
    planId: number,
    operation: Operation,
    source: LimitSource,
    limit: LimitShape,
    now: number,
  ): void {
    const cell = this.cellFor(customerId, planId, now);
    cell.used = true;
    for (const tally of cell.dryRun) {
      if (
        tally.operation === operation &&
        tally.source === source &&
        tally.count === limit.count &&
        tally.periodMs === limit.periodMs
      ) {
        tally.refused++;
        return;
      }
    }
    cell.dryRun.push({
      operation,
      source,
      count: limit.count,
      periodMs: limit.periodMs,
      refused: 1,
    });
  }

  /** pendingCells is how many customer-minutes hold counts not yet drained. */
  get pendingCells(): number {
    let pending = this.sealed.length;
    for (const cell of this.current.values()) if (cell.used) pending++;
    return pending;
  }

  /**
   * drain returns every count recorded since the last drain, one row per minute, customer,
   * operation and plan, and starts counting afresh. Customers idle for a while give back their
   * cells.
   */
  drain(): UsageBatch {
    const batch: UsageBatch = { rows: [], dryRun: [] };
    for (const cell of this.sealed) {
      emit(cell, batch);
      this.recycle(cell);
    }
    this.sealed = [];
    for (const [customerId, cell] of this.current) {
      if (cell.used) {
        emit(cell, batch);
        cell.reset(cell.customerId, cell.planId, cell.startMs);
      } else if (++cell.idleDrains >= EVICT_AFTER_DRAINS) {
        this.current.delete(customerId);
        this.recycle(cell);
      }
    }
    return mergeBatches([batch], MINUTE_MS);
  }

  /** forgetCustomer drops a deleted customer's undrained counts. */
  forgetCustomer(customerId: number): void {
    const cell = this.current.get(customerId);
    if (cell) {
      this.current.delete(customerId);
      this.recycle(cell);
    }
    this.sealed = this.sealed.filter((c) => c.customerId !== customerId);
  }

  private cellFor(customerId: number, planId: number, now: number): Cell {
    const startMs = now - (now % MINUTE_MS);
    const cell = this.current.get(customerId);
    if (cell !== undefined && cell.startMs === startMs && cell.planId === planId) return cell;
    return this.open(customerId, planId, startMs, cell);
  }

  private open(customerId: number, planId: number, startMs: number, old: Cell | undefined): Cell {
    if (old !== undefined && !old.used) {
      old.reset(customerId, planId, startMs);
      return old;
    }
    if (old !== undefined) this.sealed.push(old);
    const cell = this.free.pop() ?? new Cell();
    cell.reset(customerId, planId, startMs);
    this.current.set(customerId, cell);
    return cell;
  }

  private recycle(cell: Cell): void {
    if (this.free.length < MAX_FREE_CELLS) this.free.push(cell);
  }
}

const OPERATION_BASES = [
  ["read", 0],
  ["write", FIELDS],
] as const;

function emit(cell: Cell, into: UsageBatch): void {
  const sources: [Operation, Float64Array, number][] = OPERATION_BASES.map(([op, base]) => [
    op,
    cell.counts,
    base,
  ]);
  for (const [operation, counts] of cell.others) sources.push([operation, counts, 0]);
  for (const [operation, c, base] of sources) {
    const counts = zeroCounts();
    USAGE_COUNTERS.forEach((counter, slot) => {
      counts[counter] = c[base + slot] as number;
    });
    const row: UsageRow = {
      startMs: cell.startMs,
      customerId: cell.customerId,
      operation,
      planId: cell.planId,
      ...counts,
    };
    if (decisionsOf(row) > 0) into.rows.push(row);
  }
  for (const tally of cell.dryRun) {
    const row: DryRunRow = {
      startMs: cell.startMs,
      customerId: cell.customerId,
      operation: tally.operation,
      planId: cell.planId,
      source: tally.source,
      limitCount: tally.count,
      limitPeriodMs: tally.periodMs,
      refused: tally.refused,
    };
    into.dryRun.push(row);
  }
}
