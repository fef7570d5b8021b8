import type { DryRunState } from "@/lib/schemas/dry-run-answer.schema";
import {
  type AnyPolicyLimit,
  isQuotaShape,
  type LimitShape,
  type LimitSource,
  type Operation,
} from "@/lib/vocabulary";
import {
  changeTimes,
  clip,
  type Interval,
  segmentsOf,
  stateAt,
  type Timeline,
} from "./dry-run-timeline";

// Which parts of a range a dry-run limit was tried in, for a plan or for one customer, and what
// became of it: worked out from the timelines of what held (see dry-run-timeline.ts), the same
// way for both pages, so that a report never counts traffic the limit did not see.

/**
 * LimitsState is the limits in force from some time: a plan's (each naming its operation; no
 * expiry), or an override's for one operation (no operation named) until `expiresAt` (ms; null
 * for none), after which the plan's apply again.
 */
export interface LimitsState {
  limits: readonly (AnyPolicyLimit & { operation?: Operation })[];
  expiresAt: number | null;
}

/** TriedLimitKey names a limit a dry-run report is about: its operation, shape and whose it is. */
export interface TriedLimitKey extends LimitShape {
  operation: Operation;
  source: LimitSource;
}

/**
 * holds tells whether a state has `limit` (its operation and shape) among its limits, as a
 * dry-run limit when `dryRun`, else as an enforced one.
 */
export function holds(state: LimitsState | null, limit: TriedLimitKey, dryRun: boolean): boolean {
  return (
    state?.limits.some(
      (l) =>
        (l.dryRun === true) === dryRun &&
        !isQuotaShape(l) &&
        l.count === limit.count &&
        l.periodMs === limit.periodMs &&
        (l.operation ?? limit.operation) === limit.operation,
    ) ?? false
  );
}

/** inForce tells whether an override's state applies at `ms`: it exists and has not expired. */
export function inForce(state: LimitsState | null, ms: number): boolean {
  return state !== null && (state.expiresAt === null || ms < state.expiresAt);
}

/**
 * CustomerHistory is what decided which limits a customer's requests met: which plan it was on,
 * each of those plans' limits, and its override of each operation class it ever had (expiring
 * by itself; a class absent had none).
 */
export interface CustomerHistory {
  plan: Timeline<number>;
  plans: ReadonlyMap<number, Timeline<LimitsState>>;
  overrides: Readonly<Record<Operation, Timeline<LimitsState>>>;
}

/**
 * Course is a limit's story over time: its state at any time (ms), whether whose it is had it as
 * a dry-run limit then (`held`: the plan, or the override, expired or not), and every time
 * either can change at.
 */
export interface Course {
  classify: (ms: number) => DryRunState;
  held: (ms: number) => boolean;
  cuts: readonly number[];
}

/**
 * Judgement is where a dry-run report stands on a limit: its state now and since when (ms; null
 * while dry-run, or when that was before the known history), when it was added (ms; null when
 * that was before the range or is unknown), and the parts of the range it was tried in, oldest
 * first: what its report counts, and nothing else.
 */
export interface Judgement {
  state: DryRunState;
  stateSinceMs: number | null;
  sinceMs: number | null;
  tried: Interval[];
}

/** planLimitCourse is the course of a plan's limit, from the plan's timeline. */
export function planLimitCourse(plan: Timeline<LimitsState>, limit: TriedLimitKey): Course {
  return {
    classify: (ms) => {
      const state = stateAt(plan, ms);
      if (holds(state, limit, true)) return "dry-run";
      return holds(state, limit, false) ? "enforced" : "removed";
    },
    held: (ms) => holds(stateAt(plan, ms), limit, true),
    cuts: changeTimes(plan),
  };
}

const NONE: Timeline<LimitsState> = { initial: null, changes: [] };

function expiries(timeline: Timeline<LimitsState>): number[] {
  return [timeline.initial, ...timeline.changes.map((c) => c.state)].flatMap((s) =>
    s?.expiresAt != null ? [s.expiresAt] : [],
  );
}

/**
 * customerLimitCourse is the course of a limit tried on one customer: a plan's limit is tried
 * while the customer's plan has it and no override of its operation is in force (an override
 * replaces the plan's dry-run limits too); an override's while that override is in force.
 */
export function customerLimitCourse(history: CustomerHistory, limit: TriedLimitKey): Course {
  // A class with no override in the history never had one.
  const override = history.overrides[limit.operation] ?? NONE;
  const overrideAt = (ms: number) => stateAt(override, ms);
  const overrideCuts = [...changeTimes(override), ...expiries(override)];
  if (limit.source === "override") {
    return {
      classify: (ms) => {
        const state = overrideAt(ms);
        const dryRun = holds(state, limit, true);
        if (!dryRun && !holds(state, limit, false)) return "removed";
        if (!inForce(state, ms)) return "expired";
        return dryRun ? "dry-run" : "enforced";
      },
      held: (ms) => holds(overrideAt(ms), limit, true),
      cuts: overrideCuts,
    };
  }
  const planAt = (ms: number) => {
    const planId = stateAt(history.plan, ms);
    return planId === null ? null : stateAt(history.plans.get(planId) ?? NONE, ms);
  };
  return {
    classify: (ms) => {
      const plan = planAt(ms);
      const dryRun = holds(plan, limit, true);
      if (!dryRun && !holds(plan, limit, false)) return "removed";
      if (inForce(overrideAt(ms), ms)) return "replaced";
      return dryRun ? "dry-run" : "enforced";
    },
    held: (ms) => holds(planAt(ms), limit, true),
    cuts: [
      ...changeTimes(history.plan),
      ...[...history.plans.values()].flatMap(changeTimes),
      ...overrideCuts,
    ],
  };
}

/**
 * judge works out a limit's judgement over `range` at `now` (ms) from its course. A report
 * judges a limit on its latest stretch as a dry-run limit of whose it is (a limit promoted, or
 * removed, and tried again later starts afresh), from `storedSince` when that stretch lasts
 * until now (the time stored with the limit, which the plan's page counts from too), and only
 * where it was tried. A limit the history never shows as dry-run (changes made before the audit
 * log kept them) is judged on the whole range, as nothing says otherwise.
 */
export function judge(
  course: Course,
  range: Interval,
  now: number,
  storedSince: number | null = null,
): Judgement {
  // As of now: what is in force now lasts to the range's end (an expiry yet to come is not
  // counted on, and no decision comes after now anyway).
  const cuts = course.cuts.filter((t) => t <= now);
  const known = new Set(cuts);
  const origin = Math.min(range.fromMs, ...cuts);
  const span = { fromMs: origin, toMs: Math.max(range.toMs, now + 1) };
  const states = segmentsOf(span, cuts, course.classify);
  const current = states.find((s) => s.fromMs <= now && now < s.toMs);
  const state = current?.value ?? course.classify(now);
  const stateSinceMs =
    state !== "dry-run" && current && known.has(current.fromMs) ? current.fromMs : null;
  const run = segmentsOf(span, cuts, course.held)
    .filter((s) => s.value && s.fromMs < range.toMs)
    .at(-1);
  if (!run) return { state, stateSinceMs, sinceMs: null, tried: [{ ...range }] };
  let start = known.has(run.fromMs) ? run.fromMs : null;
  if (storedSince !== null && run.fromMs <= now && now < run.toMs) {
    start = Math.max(start ?? storedSince, storedSince);
  }
  const tried = clip(
    states.filter((s) => s.value === "dry-run"),
    {
      fromMs: Math.max(start ?? range.fromMs, range.fromMs),
      toMs: Math.min(run.toMs, range.toMs),
    },
  );
  return {
    state,
    stateSinceMs,
    sinceMs: start !== null && start > range.fromMs ? start : null,
    tried,
  };
}
