import {
  countCustomersOnPlan,
  deletePlanRow,
  getPlan,
  getPlanBySlug,
  insertPlan,
  promotePlanDryRun,
  replacePlanLimits,
  updatePlanRow,
} from "@/db/queries/plans";
import { countOf } from "@/lib/format";
import type { PlanCreate, PlanUpdate } from "@/lib/schemas/plan.schema";
import type { PlanPromotedAnswer, PlanView } from "@/lib/schemas/plan-answer.schema";
import type { FieldErrors } from "@/lib/schemas/problem.schema";
import type { Operation } from "@/lib/vocabulary";
import { change } from "./change";
import { unknownClassField, unknownLimitClasses } from "./classes";
import type { AdminContext } from "./context";

/** Outcome is a service result: the value, or a status with field errors or a message. */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; status: 400 | 404 | 409; title: string; errors?: FieldErrors };

const slugTaken = {
  ok: false,
  status: 409,
  title: "Slug already used",
  errors: { slug: ["Slug already used"] },
} as const;

const planNotFound = { ok: false, status: 404, title: "Plan not found" } as const;

/** createPlan stores a plan and its limits, audits it, and rebuilds the policy. */
export function createPlan(rt: AdminContext, actor: string, input: PlanCreate): Outcome<PlanView> {
  return change(rt, actor, (tx, now) => {
    if (getPlanBySlug(tx, input.slug)) return slugTaken;
    const unknown = unknownLimitClasses(tx, input.limits, "limits");
    if (unknown) return unknown;
    const plan = insertPlan(tx, input, now);
    const entry = { action: "plan.create", entityType: "plan", entityId: plan.id } as const;
    return { ok: true, value: plan, audit: { ...entry, before: null, after: plan } };
  });
}

/** updatePlan edits a plan (limits, when given, replace all); the next request obeys it. */
export function updatePlan(
  rt: AdminContext,
  actor: string,
  id: number,
  input: PlanUpdate,
): Outcome<PlanView> {
  return change(rt, actor, (tx, now) => {
    const before = getPlan(tx, id);
    if (!before) return planNotFound;
    if (input.slug && input.slug !== before.slug && getPlanBySlug(tx, input.slug)) return slugTaken;
    const { limits, ...fields } = input;
    const unknown = limits ? unknownLimitClasses(tx, limits, "limits") : null;
    if (unknown) return unknown;
    updatePlanRow(tx, id, fields, now);
    if (limits) replacePlanLimits(tx, id, limits, now);
    const after = getPlan(tx, id) as PlanView;
    const entry = { action: "plan.update", entityType: "plan", entityId: id } as const;
    return { ok: true, value: after, audit: { ...entry, before, after } };
  });
}

/**
 * promoteDryRun makes a plan's dry-run limits enforced (those of one operation, if given) in
 * one audited change; the next request obeys them, from the buckets they filled while dry-run.
 * Refused with 409 when there is nothing to promote.
 */
export function promoteDryRun(
  rt: AdminContext,
  actor: string,
  id: number,
  operation?: Operation,
): Outcome<PlanPromotedAnswer> {
  return change(rt, actor, (tx) => {
    const before = getPlan(tx, id);
    if (!before) return planNotFound;
    const unknown = operation ? unknownClassField(tx, operation, "operation") : null;
    if (unknown) return unknown;
    const promoted = promotePlanDryRun(tx, id, operation);
    if (promoted === 0) {
      return {
        ok: false,
        status: 409,
        title: `The plan has no dry-run ${operation ? `${operation} ` : ""}limits to promote`,
      };
    }
    const after = getPlan(tx, id) as PlanView;
    const entry = { action: "plan.promote-dry-run", entityType: "plan", entityId: id } as const;
    return { ok: true, value: { plan: after, promoted }, audit: { ...entry, before, after } };
  });
}

/** deletePlan removes a plan that no customer uses. */
export function deletePlan(rt: AdminContext, actor: string, id: number): Outcome<null> {
  return change(rt, actor, (tx) => {
    const before = getPlan(tx, id);
    if (!before) return planNotFound;
    const customers = countCustomersOnPlan(tx, id);
    if (customers > 0) {
      return {
        ok: false,
        status: 409,
        title: `Plan has ${countOf(customers, "customer")}: move them to another plan first`,
      };
    }
    deletePlanRow(tx, id);
    const entry = { action: "plan.delete", entityType: "plan", entityId: id } as const;
    return { ok: true, value: null, audit: { ...entry, before, after: null } };
  });
}
