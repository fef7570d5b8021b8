import { getPlan } from "@/db/queries/plans";
import { activeOverride } from "@/lib/policy/snapshot";
import { type DryRunLimitReport, dryRunReport, type TriedLimit } from "@/lib/usage/dry-run-report";
import { OPERATIONS } from "@/lib/vocabulary";
import type { Outcome } from "./plans";
import {
  DEFAULT_SPAN_MS,
  MAX_DETAIL_SPAN_MS,
  minutesFrom,
  namesOf,
  type UsageContext,
} from "./usage";
import { type Range, resolveRange } from "./usage-range";

/** DryRunResponse is a dry-run report over a range. */
export interface DryRunResponse {
  fromMs: number;
  toMs: number;
  limits: DryRunLimitReport[];
}

function dryRunRange(ctx: UsageContext, input: { from?: number; to?: number }): Outcome<Range> {
  return resolveRange(input, ctx.clock.now(), DEFAULT_SPAN_MS, MAX_DETAIL_SPAN_MS);
}

/**
 * planDryRun reports what each of a plan's dry-run limits (those it has, and those tried in the
 * range since promoted or removed) would have refused over the range (default 24 h).
 */
export function planDryRun(
  ctx: UsageContext,
  planId: number,
  input: { from?: number; to?: number },
): Outcome<DryRunResponse> {
  const range = dryRunRange(ctx, input);
  if (!range.ok) return range;
  const plan = getPlan(ctx.db, planId);
  if (!plan) return { ok: false, status: 404, title: "Plan not found" };
  const current: TriedLimit[] = plan.limits.map((l) => ({ ...l, source: "plan" }));
  const names = namesOf(ctx.db);
  const limits = dryRunReport(
    ctx.db,
    { planId },
    range.value,
    current,
    (id) => names.get(id)?.name ?? `Customer #${id}`,
    minutesFrom(ctx),
  );
  return { ok: true, value: { ...range.value, limits } };
}

/**
 * customerDryRun reports what the dry-run limits tried on one customer (its override's, or its
 * plan's) would have refused of its traffic over the range (default 24 h).
 */
export function customerDryRun(
  ctx: UsageContext,
  customerId: number,
  input: { from?: number; to?: number },
): Outcome<DryRunResponse> {
  const range = dryRunRange(ctx, input);
  if (!range.ok) return range;
  const customer = ctx.policy.snapshot.byId.get(customerId);
  if (!customer) return { ok: false, status: 404, title: "Customer not found" };
  const now = ctx.clock.now();
  const current: TriedLimit[] = [];
  for (const operation of OPERATIONS) {
    const override = activeOverride(customer, operation, now);
    const source = override ? "override" : "plan";
    const enforced = override ? override.limits : customer.planLimits[operation];
    const dryRun = override ? override.dryRun : customer.planDryRun[operation];
    for (const [limits, flag] of [
      [enforced, false],
      [dryRun, true],
    ] as const) {
      for (const l of limits) {
        current.push({ operation, source, count: l.count, periodMs: l.periodMs, dryRun: flag });
      }
    }
  }
  const limits = dryRunReport(
    ctx.db,
    { customerId },
    range.value,
    current,
    () => customer.name,
    minutesFrom(ctx),
  );
  return { ok: true, value: { ...range.value, limits } };
}
