import { z } from "zod";
import type { Tx } from "@/db/client";
import { type AuditEntry, listEntityAudit } from "@/db/queries/audit";
import { listCustomerOverrides } from "@/db/queries/customers";
import { getPlan, limitOfColumns } from "@/db/queries/plans";
import { classNameSchema } from "@/lib/schemas/operation-class.schema";
import { type AuditAction, DEFAULT_CLASSES, type Operation } from "@/lib/vocabulary";
import type { CustomerHistory, LimitsState } from "./dry-run-judge";
import type { Timeline } from "./dry-run-timeline";

// The timelines a dry-run report judges on, read from the audit log: every change to a plan's
// limits, a customer's plan or its overrides writes an entry with the state before and after it
// (see lib/admin), in the change's own transaction.

/** PLAN_CHANGES are the audited actions that change a plan's limits. */
const PLAN_CHANGES: readonly AuditAction[] = [
  "plan.create",
  "plan.update",
  "plan.promote-dry-run",
  "plan.delete",
];

/** CUSTOMER_CHANGES are the audited actions whose entries carry the customer's plan. */
const CUSTOMER_CHANGES: readonly AuditAction[] = [
  "customer.create",
  "customer.update",
  "customer.suspend",
  "customer.activate",
  "customer.delete",
];

/** OVERRIDE_CHANGES are the audited actions that change a customer's override of an operation. */
const OVERRIDE_CHANGES: readonly AuditAction[] = [
  "override.set",
  "override.clear",
  "override.promote-dry-run",
];

// What the entries hold, as far as the timelines need it (the entries hold more).
const limitSchema = z.object({
  operation: classNameSchema.optional(),
  count: z.number(),
  periodMs: z.number(),
  dryRun: z.boolean().optional(),
});
const planSchema = z.object({ limits: z.array(limitSchema) });
const customerSchema = z.object({ planId: z.number() });
const overrideSchema = z.object({
  operation: classNameSchema,
  override: z.object({ limits: z.array(limitSchema), expiresAt: z.number().nullable() }).nullable(),
});

/** Read turns one side of an entry into a state: null for none, undefined when it does not say. */
type Read<S> = (side: unknown) => S | null | undefined;

/**
 * timelineOf builds a timeline from entries, oldest first: the state before the first entry that
 * says, then each one's state after. Without any, `current` held all along.
 */
function timelineOf<S>(entries: readonly AuditEntry[], read: Read<S>, current: S | null) {
  let initial: S | null | undefined;
  const changes: { at: number; state: S | null }[] = [];
  for (const entry of entries) {
    const after = read(entry.after);
    if (after === undefined) continue;
    if (initial === undefined) initial = read(entry.before) ?? null;
    changes.push({ at: entry.at, state: after });
  }
  return { initial: initial === undefined ? current : initial, changes } satisfies Timeline<S>;
}

/**
 * createdAt dates a timeline's start: nothing held before the thing was created (at `createdAt`,
 * ms), so a history that does not open with its creation (made before the audit log kept it)
 * gains it there. Else the timeline as it is.
 */
function createdAt<S>(timeline: Timeline<S>, at: number | undefined): Timeline<S> {
  const first = timeline.changes[0];
  if (at === undefined || timeline.initial === null || (first && first.at < at)) return timeline;
  return { initial: null, changes: [{ at, state: timeline.initial }, ...timeline.changes] };
}

const readPlan: Read<LimitsState> = (side) => {
  if (side === null) return null;
  const parsed = planSchema.safeParse(side);
  return parsed.success ? { limits: parsed.data.limits, expiresAt: null } : undefined;
};

const readPlanId: Read<number> = (side) => {
  if (side === null) return null;
  const parsed = customerSchema.safeParse(side);
  return parsed.success ? parsed.data.planId : undefined;
};

function readOverride(operation: Operation): Read<LimitsState> {
  return (side) => {
    const parsed = overrideSchema.safeParse(side);
    if (!parsed.success || parsed.data.operation !== operation) return undefined;
    return parsed.data.override;
  };
}

/** planHistory is the timeline of a plan's limits (its current ones when never audited). */
export function planHistory(tx: Tx, planId: number): Timeline<LimitsState> {
  const plan = getPlan(tx, planId);
  const timeline = timelineOf(
    listEntityAudit(tx, { type: "plan", id: planId }, PLAN_CHANGES),
    readPlan,
    plan ? { limits: plan.limits, expiresAt: null } : null,
  );
  return createdAt(timeline, plan?.createdAt);
}

/**
 * customerHistory is what decided the limits a customer's requests met: its plan over time
 * (`planId` now; none before it was created), each plan it was on, and its override of each
 * operation.
 */
export function customerHistory(
  tx: Tx,
  customer: { id: number; planId: number; createdAt: number },
): CustomerHistory {
  const { id: customerId, planId } = customer;
  const entries = listEntityAudit(tx, { type: "customer", id: customerId }, [
    ...CUSTOMER_CHANGES,
    ...OVERRIDE_CHANGES,
  ]);
  const of = (actions: readonly AuditAction[]) =>
    entries.filter((e) => (actions as readonly string[]).includes(e.action));
  const plan = createdAt(timelineOf(of(CUSTOMER_CHANGES), readPlanId, planId), customer.createdAt);
  const planIds = new Set([plan.initial, ...plan.changes.map((c) => c.state), planId]);
  const plans = new Map<number, Timeline<LimitsState>>();
  for (const id of planIds) if (id !== null) plans.set(id, planHistory(tx, id));
  const rows = listCustomerOverrides(tx, customerId);
  const overrideOf = (operation: Operation): Timeline<LimitsState> => {
    const mine = rows.filter((r) => r.operation === operation);
    const current = mine[0]
      ? { limits: mine.map(limitOfColumns), expiresAt: mine[0].expiresAt }
      : null;
    return timelineOf(of(OVERRIDE_CHANGES), readOverride(operation), current);
  };
  // Every class an override ever had (the defaults, those audited, those stored).
  const classes = new Set<Operation>([...DEFAULT_CLASSES, ...rows.map((r) => r.operation)]);
  for (const entry of of(OVERRIDE_CHANGES)) {
    for (const side of [entry.before, entry.after]) {
      const parsed = overrideSchema.safeParse(side);
      if (parsed.success) classes.add(parsed.data.operation);
    }
  }
  const overrides: Record<Operation, Timeline<LimitsState>> = {};
  for (const operation of classes) overrides[operation] = overrideOf(operation);
  return { plan, plans, overrides };
}
