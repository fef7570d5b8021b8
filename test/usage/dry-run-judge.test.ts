import { describe, expect, it } from "vitest";
import {
  type CustomerHistory,
  customerLimitCourse,
  judge,
  type LimitsState,
  planLimitCourse,
  type TriedLimitKey,
} from "@/lib/usage/dry-run-judge";
import type { Timeline } from "@/lib/usage/dry-run-timeline";

const MIN = 60_000;
// Named instants: the range is [t0, t9); each step happens at its minute and 15 s.
const at = (minute: number) => minute * MIN + 15_000;
const t0 = 0;
const tAdded = at(10);
const tOverride = at(20);
const tCleared = at(40);
const tExpires = at(50);
const tMoved = at(60);
const now = at(80);
const t9 = 81 * MIN;
const range = { fromMs: t0, toMs: t9 };

const planLimit: TriedLimitKey = { operation: "read", count: 2, periodMs: 1_000, source: "plan" };
const overrideLimit: TriedLimitKey = { ...planLimit, count: 5, source: "override" };
const enforced = { operation: "read" as const, count: 100, periodMs: 1_000 };
const before: LimitsState = { limits: [enforced], expiresAt: null };
const withLimit: LimitsState = {
  limits: [enforced, { ...planLimit, dryRun: true }],
  expiresAt: null,
};

/** The trial's plan: its read limit of 2 a second added as dry-run at tAdded. */
const plan: Timeline<LimitsState> = {
  initial: before,
  changes: [{ at: tAdded, state: withLimit }],
};

function override(expiresAt: number | null): LimitsState {
  return {
    limits: [
      { count: 1_000, periodMs: 1_000 },
      { count: 5, periodMs: 1_000, dryRun: true },
    ],
    expiresAt,
  };
}

function customer(overrides: Timeline<LimitsState>, plans = new Map([[1, plan]])): CustomerHistory {
  return {
    plan: { initial: 1, changes: [] },
    plans,
    overrides: { read: overrides, write: { initial: null, changes: [] } },
  };
}

describe("judging a plan's dry-run limit on one customer", () => {
  // Regression: the customer's page judged it on the whole day and called it "removed".
  it("judges it from when it was added until an override replaced it, and says since when", () => {
    const history = customer({
      initial: null,
      changes: [{ at: tOverride, state: override(null) }],
    });
    expect(judge(customerLimitCourse(history, planLimit), range, now, tAdded)).toEqual({
      state: "replaced",
      stateSinceMs: tOverride,
      sinceMs: tAdded,
      tried: [{ fromMs: tAdded, toMs: tOverride }],
    });
  });

  it("tries it again once the override expires, and again once it is cleared", () => {
    const expiring = customer({
      initial: null,
      changes: [{ at: tOverride, state: override(tExpires) }],
    });
    expect(judge(customerLimitCourse(expiring, planLimit), range, now, tAdded)).toEqual({
      state: "dry-run",
      stateSinceMs: null,
      sinceMs: tAdded,
      tried: [
        { fromMs: tAdded, toMs: tOverride },
        { fromMs: tExpires, toMs: t9 },
      ],
    });
    const cleared = customer({
      initial: null,
      changes: [
        { at: tOverride, state: override(null) },
        { at: tCleared, state: null },
      ],
    });
    expect(judge(customerLimitCourse(cleared, planLimit), range, now, tAdded).tried).toEqual([
      { fromMs: tAdded, toMs: tOverride },
      { fromMs: tCleared, toMs: t9 },
    ]);
  });

  it("judges an override's own dry-run limit while the override was in force, then expired since its expiry", () => {
    const history = customer({
      initial: null,
      changes: [{ at: tOverride, state: override(tExpires) }],
    });
    expect(judge(customerLimitCourse(history, overrideLimit), range, now, tOverride)).toEqual({
      state: "expired",
      stateSinceMs: tExpires,
      sinceMs: tOverride,
      tried: [{ fromMs: tOverride, toMs: tExpires }],
    });
    // Before the expiry it is tried to the range's end, as of now.
    expect(judge(customerLimitCourse(history, overrideLimit), range, at(45), tOverride)).toEqual({
      state: "dry-run",
      stateSinceMs: null,
      sinceMs: tOverride,
      tried: [{ fromMs: tOverride, toMs: t9 }],
    });
  });

  it("stops trying it when the customer moves to a plan without it, and tries the new plan's from the move", () => {
    const other: Timeline<LimitsState> = { initial: withLimit, changes: [] };
    const history: CustomerHistory = {
      plan: { initial: 1, changes: [{ at: tMoved, state: 2 }] },
      plans: new Map([
        [1, plan],
        [2, { initial: before, changes: [] }],
      ]),
      overrides: { read: { initial: null, changes: [] }, write: { initial: null, changes: [] } },
    };
    expect(judge(customerLimitCourse(history, planLimit), range, now)).toEqual({
      state: "removed",
      stateSinceMs: tMoved,
      sinceMs: tAdded,
      tried: [{ fromMs: tAdded, toMs: tMoved }],
    });
    const onto: CustomerHistory = {
      ...history,
      plan: { initial: 2, changes: [{ at: tMoved, state: 1 }] },
      plans: new Map([
        [1, other],
        [2, { initial: before, changes: [] }],
      ]),
    };
    expect(judge(customerLimitCourse(onto, planLimit), range, now).tried).toEqual([
      { fromMs: tMoved, toMs: t9 },
    ]);
  });
});

describe("judging a plan's dry-run limit on the plan", () => {
  it("judges a promoted limit while it was dry-run, and says it is enforced since the promotion", () => {
    const promoted: Timeline<LimitsState> = {
      ...plan,
      changes: [
        ...plan.changes,
        { at: tCleared, state: { limits: [enforced, { ...planLimit }], expiresAt: null } },
      ],
    };
    expect(judge(planLimitCourse(promoted, planLimit), range, now)).toEqual({
      state: "enforced",
      stateSinceMs: tCleared,
      sinceMs: tAdded,
      tried: [{ fromMs: tAdded, toMs: tCleared }],
    });
  });

  it("judges a limit removed and added again from its latest addition only", () => {
    const again: Timeline<LimitsState> = {
      ...plan,
      changes: [
        ...plan.changes,
        { at: tOverride, state: before },
        { at: tCleared, state: withLimit },
      ],
    };
    expect(judge(planLimitCourse(again, planLimit), range, now, tCleared)).toEqual({
      state: "dry-run",
      stateSinceMs: null,
      sinceMs: tCleared,
      tried: [{ fromMs: tCleared, toMs: t9 }],
    });
  });

  it("never counts from before the limit's stored start, though the history says earlier", () => {
    // A limit stored before its start was recorded: the migration dated it from the plan's last
    // edit, the latest it can have been added.
    expect(judge(planLimitCourse(plan, planLimit), range, now, tOverride)).toMatchObject({
      sinceMs: tOverride,
      tried: [{ fromMs: tOverride, toMs: t9 }],
    });
  });

  it("a limit held since before the known history has no start in the range: judged on all of it", () => {
    const always: Timeline<LimitsState> = { initial: withLimit, changes: [] };
    expect(judge(planLimitCourse(always, planLimit), range, now)).toEqual({
      state: "dry-run",
      stateSinceMs: null,
      sinceMs: null,
      tried: [range],
    });
  });

  it("a limit the history never shows as dry-run (changed before the audit log kept it) is judged on the whole range", () => {
    const never: Timeline<LimitsState> = { initial: before, changes: [] };
    expect(judge(planLimitCourse(never, planLimit), range, now)).toEqual({
      state: "removed",
      stateSinceMs: null,
      sinceMs: null,
      tried: [range],
    });
  });
});
