import { listCustomerOverrides } from "@/db/queries/customers";
import { dryRunKey, dryRunSinceOf, getPlan, listPlanDryRunSince } from "@/db/queries/plans";
import { activeOverride } from "@/lib/policy/snapshot";
import { MAX_TRAFFIC_SECONDS } from "@/lib/schemas/query.schema";
import {
  countedFrom,
  type DryRunLimitReport,
  type DryRunScope,
  dryRunReport,
  minuteOf,
  type TriedLimit,
} from "@/lib/usage/dry-run-report";
import type { LiveTraffic } from "@/lib/usage/live-traffic";
import { MINUTE_MS, SECOND_MS } from "@/lib/usage/time";
import { readUsage } from "@/lib/usage/usage-read";
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
 * range since promoted or removed) would have refused over the range (default 24 h), each since
 * it was added if that was within the range.
 */
export async function planDryRun(
  ctx: UsageContext,
  live: LiveTraffic,
  planId: number,
  input: { from?: number; to?: number },
): Promise<Outcome<DryRunResponse>> {
  const range = dryRunRange(ctx, input);
  if (!range.ok) return range;
  const plan = getPlan(ctx.db, planId);
  if (!plan) return { ok: false, status: 404, title: "Plan not found" };
  const since = dryRunSinceOf(listPlanDryRunSince(ctx.db, planId));
  const current: TriedLimit[] = plan.limits.map((l) => ({
    ...l,
    source: "plan",
    since: l.dryRun ? (since.get(dryRunKey(l)) ?? null) : null,
  }));
  const names = namesOf(ctx.db);
  const scope = { planId };
  const before = await decisionsBefore(ctx, live, scope, current, range.value);
  const limits = dryRunReport(
    ctx.db,
    scope,
    range.value,
    current,
    (id) => names.get(id)?.name ?? `Customer #${id}`,
    minutesFrom(ctx),
    before,
  );
  return { ok: true, value: { ...range.value, limits } };
}

/**
 * customerDryRun reports what the dry-run limits tried on one customer (its override's, or its
 * plan's) would have refused of its traffic over the range (default 24 h), each since it was
 * added if that was within the range.
 */
export async function customerDryRun(
  ctx: UsageContext,
  live: LiveTraffic,
  customerId: number,
  input: { from?: number; to?: number },
): Promise<Outcome<DryRunResponse>> {
  const range = dryRunRange(ctx, input);
  if (!range.ok) return range;
  const customer = ctx.policy.snapshot.byId.get(customerId);
  if (!customer) return { ok: false, status: 404, title: "Customer not found" };
  const now = ctx.clock.now();
  const overrideSince = dryRunSinceOf(
    listCustomerOverrides(ctx.db, customerId).filter((row) => row.dryRun),
  );
  const planSince = dryRunSinceOf(listPlanDryRunSince(ctx.db, customer.planId));
  const current: TriedLimit[] = [];
  for (const operation of OPERATIONS) {
    const override = activeOverride(customer, operation, now);
    const source = override ? "override" : "plan";
    const enforced = override ? override.limits : customer.planLimits[operation];
    const dryRun = override ? override.dryRun : customer.planDryRun[operation];
    const since = override ? overrideSince : planSince;
    for (const [limits, flag] of [
      [enforced, false],
      [dryRun, true],
    ] as const) {
      for (const l of limits) {
        const shape = { operation, count: l.count, periodMs: l.periodMs };
        current.push({
          ...shape,
          source,
          dryRun: flag,
          since: flag ? (since.get(dryRunKey(shape)) ?? null) : null,
        });
      }
    }
  }
  const scope = { customerId };
  const before = await decisionsBefore(ctx, live, scope, current, range.value);
  const limits = dryRunReport(
    ctx.db,
    scope,
    range.value,
    current,
    () => customer.name,
    minutesFrom(ctx),
    before,
  );
  return { ok: true, value: { ...range.value, limits } };
}

/**
 * decisionsBefore counts, for each dry-run limit added within the range, the scope's decisions
 * of its operation in the minute it was added in but before it was (the rollups count whole
 * minutes): from the live view's seconds, while it holds that minute (the last 5 minutes),
 * for the customers the rollups have in that minute. 0 where it cannot tell.
 */
async function decisionsBefore(
  ctx: UsageContext,
  live: LiveTraffic,
  scope: DryRunScope,
  tried: readonly TriedLimit[],
  range: Range,
): Promise<(limit: TriedLimit) => number> {
  const now = ctx.clock.now();
  const held = now - MAX_TRAFFIC_SECONDS * SECOND_MS;
  const recent = tried.filter(
    (l) =>
      l.dryRun &&
      l.since !== null &&
      l.since !== undefined &&
      countedFrom(range.fromMs, l.since) > range.fromMs &&
      minuteOf(l.since) >= held,
  );
  if (recent.length === 0) return () => 0;
  const minutes = [...new Set(recent.map((l) => minuteOf(l.since as number)))];
  const customerIds = new Set<number>();
  for (const minute of minutes) {
    const rows = readUsage(
      ctx.db,
      { fromMs: minute, toMs: minute + MINUTE_MS, ...scope },
      ["customer"],
      { minutesFromMs: minutesFrom(ctx), minutesOnly: true },
    );
    for (const row of rows) customerIds.add(row.customerId);
  }
  if (customerIds.size === 0) return () => 0;
  const { seconds } = await live.takenSeconds(now, MAX_TRAFFIC_SECONDS, [...customerIds]);
  return (limit) => {
    if (!recent.includes(limit)) return 0;
    const since = limit.since as number;
    let count = 0;
    for (const id of customerIds) {
      for (const s of seconds.get(`${id}|${limit.operation}`) ?? []) {
        // Whole seconds before the addition; the second it came in counts as after it.
        if (s.t >= minuteOf(since) && s.t + SECOND_MS <= since) count += s.allowed + s.denied;
      }
    }
    return count;
  };
}
