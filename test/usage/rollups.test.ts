import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as bulk } from "@/app/api/v1/items/bulk/route";
import { GET as list } from "@/app/api/v1/items/route";
import { aggregateUsage } from "@/db/queries/usage";
import { decide } from "@/lib/policy/decide";
import { type DecisionStore, unavailable } from "@/lib/policy/decision-store";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import { type Runtime, setRuntime } from "@/lib/runtime";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/usage/time";
import {
  api,
  createTestRuntime,
  openTestRuntime,
  START_MS,
  type TestCustomer,
  type TestRuntime,
} from "../support/runtime";
import { report, totalsOf } from "./usage-support";

/** failClosed is a store that refuses every decision as Redis down would, for writes. */
function failClosed(real: DecisionStore): DecisionStore {
  return {
    decide: (input, n) => unavailable(input, n, 1_000),
    peek: (input, n) => real.peek(input, n),
    forget: (id, classes) => real.forget(id, classes),
    invalidate: (ids) => real.invalidate(ids),
    forgetLocal: (id, classes) => real.forgetLocal(id, classes),
    status: () => real.status(),
    ready: () => real.ready(),
    close: () => real.close(),
  };
}

/**
 * traffic sends, for one customer: 5 reads against a limit of 3 (3 allowed, 2 denied), one bulk
 * write of 4 items (allowed, 4 tokens), one write of cost 101 that no bucket of 100 can hold
 * (413, too large), and 2 writes of cost 2 while the store is unavailable.
 */
async function traffic(runtime: Runtime, who: TestCustomer): Promise<void> {
  for (let i = 0; i < 5; i++) await list(api("/api/v1/items", { key: who.key }));
  const items = [1, 2, 3, 4].map((i) => ({ name: `item ${i}` }));
  expect((await bulk(api("/api/v1/items/bulk", { key: who.key, body: { items } }))).status).toBe(
    201,
  );
  const customer = runtime.policy.snapshot.byId.get(who.id) as CustomerPolicy;
  expect((await decide(runtime, customer, "write", 101)).reason).toBe("cost_exceeds_limit");
  const real = runtime.decisions;
  runtime.decisions = failClosed(real);
  try {
    for (let i = 0; i < 2; i++) {
      expect((await decide(runtime, customer, "write", 2)).reason).toBe("store_unavailable");
    }
  } finally {
    runtime.decisions = real;
  }
}

/** ONE_ROUND is what `traffic` adds to the rollups, overall: the 413's cost is not requested. */
const ONE_ROUND = {
  allowed: 4,
  denied: 2,
  unavailable: 2,
  tooLarge: 1,
  tokensRequested: 13,
  tokensTaken: 7,
};

function times(n: number) {
  return Object.fromEntries(Object.entries(ONE_ROUND).map(([k, v]) => [k, v * n]));
}

describe("usage rollups", () => {
  let t: TestRuntime;
  let who: TestCustomer;
  beforeEach(() => {
    t = createTestRuntime();
    t.addPlan("tight", [
      { operation: "read", count: 3, periodMs: HOUR_MS },
      { operation: "write", count: 100, periodMs: HOUR_MS },
    ]);
    who = t.addCustomer("tight", "Tight Ltd");
    t.clock.advance(10 * MINUTE_MS);
  });
  afterEach(() => t.cleanup());

  // Regression: a request refused for its cost (413) counted as denied by the limits, and its
  // cost as tokens requested (3 of cost 1,000,000 made 3,000,053 tokens requested for 7).
  it("counts each outcome exactly once across a flush, a 413 as too large with no tokens requested, and a flush with nothing adds nothing", async () => {
    await traffic(t.runtime, who);
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS))).toEqual(times(0));
    await t.runtime.usage.flush();
    const day = report(t.runtime, START_MS, START_MS + DAY_MS);
    expect(totalsOf(day)).toEqual(ONE_ROUND);
    expect(day.totals.byOperation.read).toEqual({
      allowed: 3,
      denied: 2,
      unavailable: 0,
      tooLarge: 0,
      tokensRequested: 5,
      tokensTaken: 3,
    });
    expect(day.totals.byOperation.write).toEqual({
      allowed: 1,
      denied: 0,
      unavailable: 2,
      tooLarge: 1,
      tokensRequested: 8,
      tokensTaken: 4,
    });
    await t.runtime.usage.flush();
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS))).toEqual(ONE_ROUND);
    // The minute series puts every decision in the minute it was made.
    const minutes = report(t.runtime, START_MS, START_MS + HOUR_MS, "minute");
    const read = minutes.series.find((s) => s.operation === "read")?.points ?? [];
    expect(read.filter((p) => p.allowed + p.denied > 0).map((p) => p.t)).toEqual([
      START_MS + 10 * MINUTE_MS,
    ]);
  });

  it("keeps the counts across a restart on the same database: the close flushes them", async () => {
    await traffic(t.runtime, who);
    t.runtime.close();
    const second = openTestRuntime(t.databasePath, t.clock);
    setRuntime(second);
    try {
      expect(totalsOf(report(second, START_MS, START_MS + DAY_MS))).toEqual(ONE_ROUND);
      t.clock.advance(2 * HOUR_MS);
      await traffic(second, who);
      await second.usage.flush();
      expect(totalsOf(report(second, START_MS, START_MS + DAY_MS))).toEqual(times(2));
    } finally {
      second.close();
    }
  });

  it("counts each decision once across a fold from minutes to hours, late counts included", async () => {
    await traffic(t.runtime, who);
    await t.runtime.usage.flush();
    t.clock.advance(3 * HOUR_MS);
    await traffic(t.runtime, who);
    await t.runtime.usage.flush();
    const fold = t.runtime.folds.fold();
    expect(fold?.watermarkMs).toBe(START_MS + 3 * HOUR_MS);
    expect(fold?.dayWatermarkMs).toBe(START_MS);
    const db = t.runtime.db;
    const range = { fromMs: START_MS, toMs: START_MS + DAY_MS };
    const hours = aggregateUsage(db, "hours", range, []);
    expect(
      hours.map(({ allowed, denied, unavailable, tooLarge }) => ({
        allowed,
        denied,
        unavailable,
        tooLarge,
      })),
    ).toEqual([{ allowed: 4, denied: 2, unavailable: 2, tooLarge: 1 }]);
    // Hour and day series read the folded hour once and the unfolded minutes once.
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS, "hour"))).toEqual(times(2));
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS, "day"))).toEqual(times(2));
    expect(totalsOf(report(t.runtime, START_MS, START_MS + 4 * HOUR_MS, "minute"))).toEqual(
      times(2),
    );
    // A count that arrives for a minute already folded lands in its minute and its hour, once.
    t.runtime.usage.record(
      who.id,
      t.planId("tight"),
      "read",
      "allowed",
      1,
      1,
      START_MS + MINUTE_MS,
    );
    await t.runtime.usage.flush();
    const plusOne = { ...times(2), allowed: 9, tokensRequested: 27, tokensTaken: 15 };
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS, "hour"))).toEqual(plusOne);
    expect(totalsOf(report(t.runtime, START_MS, START_MS + 4 * HOUR_MS, "minute"))).toEqual(
      plusOne,
    );
    // Folding again moves nothing twice; a day folds into a day row once it is over.
    t.clock.advance(HOUR_MS);
    t.runtime.folds.fold();
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS, "day"))).toEqual(plusOne);
    t.clock.advance(DAY_MS);
    expect(t.runtime.folds.fold().dayWatermarkMs).toBe(START_MS + DAY_MS);
    expect(aggregateUsage(db, "days", range, [])[0]?.allowed).toBe(9);
    expect(totalsOf(report(t.runtime, START_MS, START_MS + 2 * DAY_MS, "day"))).toEqual(plusOne);
    // A late count for that day lands in its minute, its hour and its day, once each.
    t.runtime.usage.record(
      who.id,
      t.planId("tight"),
      "write",
      "denied",
      2,
      0,
      START_MS + MINUTE_MS,
    );
    await t.runtime.usage.flush();
    const plusTwo = { ...plusOne, denied: 5, tokensRequested: 29 };
    for (const g of ["day", "hour"] as const) {
      expect(totalsOf(report(t.runtime, START_MS, START_MS + 2 * DAY_MS, g))).toEqual(plusTwo);
    }
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS, "minute"))).toEqual(plusTwo);
  });

  it("prunes minute rows after the minute retention and hour rows after the hour retention", async () => {
    await traffic(t.runtime, who);
    await t.runtime.usage.flush();
    const db = t.runtime.db;
    const range = { fromMs: START_MS, toMs: START_MS + DAY_MS };
    t.clock.advance(6 * DAY_MS);
    // A fold catches up a day at a time.
    for (let i = 0; i < 7; i++) t.runtime.folds.fold();
    expect(aggregateUsage(db, "minutes", range, ["customer"])).toHaveLength(1);
    t.clock.advance(2 * DAY_MS);
    const pruned = t.runtime.folds.fold();
    expect(pruned?.prunedMinuteRows).toBe(2);
    expect(aggregateUsage(db, "minutes", range, ["customer"])).toEqual([]);
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS, "day"))).toEqual(ONE_ROUND);
    t.clock.advance(81 * DAY_MS);
    expect(t.runtime.folds.fold().prunedHourRows).toBe(0);
    t.clock.advance(DAY_MS);
    expect(t.runtime.folds.fold().prunedHourRows).toBe(2);
    // The hour series has lost that hour; the day row goes once the whole day is past.
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS, "hour"))).toEqual(times(0));
    t.clock.advance(DAY_MS);
    expect(t.runtime.folds.fold().prunedDayRows).toBe(2);
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS, "day"))).toEqual(times(0));
  });
});
