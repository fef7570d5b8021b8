import { afterEach, describe, expect, it } from "vitest";
import { clearOverride, setOverride, updateCustomer } from "@/lib/admin/customers";
import { createPlan, promoteDryRun, updatePlan } from "@/lib/admin/plans";
import { customerHistory, planHistory } from "@/lib/usage/dry-run-history";
import { stateAt } from "@/lib/usage/dry-run-timeline";
import { HOUR_MS, MINUTE_MS } from "@/lib/usage/time";
import { createTestRuntime, START_MS, type TestRuntime } from "../support/runtime";

const enforced = { operation: "read" as const, count: 100, periodMs: HOUR_MS };
const tried = { operation: "read" as const, count: 2, periodMs: HOUR_MS, dryRun: true };

describe("the timelines a dry-run report reads from the audit log", () => {
  let t: TestRuntime;
  afterEach(() => t.cleanup());

  const ok = <T>(outcome: { ok: true; value: T } | { ok: false }): T => {
    if (!outcome.ok) throw new Error("the change was refused");
    return outcome.value;
  };

  it("a plan's limits: from its creation, through each edit and promotion", () => {
    t = createTestRuntime();
    const created = START_MS;
    const plan = ok(
      createPlan(t.runtime, "admin", {
        slug: "audited",
        name: "Audited",
        description: "",
        limits: [enforced],
      }),
    );
    t.clock.advance(MINUTE_MS);
    const added = t.clock.now();
    ok(updatePlan(t.runtime, "admin", plan.id, { limits: [enforced, tried] }));
    t.clock.advance(MINUTE_MS);
    const promoted = t.clock.now();
    ok(promoteDryRun(t.runtime, "admin", plan.id));
    const history = planHistory(t.runtime.db, plan.id);
    expect(history.initial).toBeNull();
    expect(history.changes.map((c) => c.at)).toEqual([created, added, promoted]);
    const dryRunAt = (ms: number) =>
      stateAt(history, ms)?.limits.find((l) => l.count === 2)?.dryRun ?? null;
    expect([dryRunAt(created), dryRunAt(added), dryRunAt(promoted)]).toEqual([null, true, false]);
  });

  it("a plan made before the audit log kept it starts at its creation", () => {
    t = createTestRuntime();
    t.clock.advance(MINUTE_MS);
    const planId = t.addPlan("unaudited", [enforced, tried]);
    const history = planHistory(t.runtime.db, planId);
    expect(history).toEqual({
      initial: null,
      changes: [{ at: START_MS + MINUTE_MS, state: expect.objectContaining({ expiresAt: null }) }],
    });
  });

  it("a customer's plan and overrides: moves between plans, overrides saved with their expiry and cleared", () => {
    t = createTestRuntime();
    const first = t.addPlan("first", [enforced, tried]);
    const second = t.addPlan("second", [enforced]);
    const c = t.addCustomer("first", "Delta");
    t.clock.advance(MINUTE_MS);
    const set = t.clock.now();
    const expiresAt = set + 10 * MINUTE_MS;
    ok(
      setOverride(t.runtime, "admin", c.id, "read", {
        limits: [{ count: 5, periodMs: HOUR_MS }],
        expiresAt,
      }),
    );
    t.clock.advance(MINUTE_MS);
    const cleared = t.clock.now();
    ok(clearOverride(t.runtime, "admin", c.id, "read"));
    t.clock.advance(MINUTE_MS);
    const moved = t.clock.now();
    ok(updateCustomer(t.runtime, "admin", c.id, { planId: second }));
    const history = customerHistory(t.runtime.db, {
      id: c.id,
      planId: second,
      createdAt: START_MS,
    });
    expect(history.plan).toEqual({
      initial: null,
      changes: [
        { at: START_MS, state: first },
        { at: moved, state: second },
      ],
    });
    expect([...history.plans.keys()].sort()).toEqual([first, second].sort());
    expect(history.overrides.read).toEqual({
      initial: null,
      changes: [
        {
          at: set,
          state: { limits: [{ count: 5, periodMs: HOUR_MS, dryRun: false }], expiresAt },
        },
        { at: cleared, state: null },
      ],
    });
    expect(history.overrides.write).toEqual({ initial: null, changes: [] });
  });
});
