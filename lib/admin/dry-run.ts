import { getCustomer, listCustomerOverrides } from "@/db/queries/customers";
import { dryRunKey, dryRunSinceOf, getPlan, listPlanDryRunSince } from "@/db/queries/plans";
import type { DryRunAnswer } from "@/lib/schemas/dry-run-answer.schema";
import { MAX_TRAFFIC_SECONDS } from "@/lib/schemas/query.schema";
import { customerHistory, planHistory } from "@/lib/usage/dry-run-history";
import {
  type Course,
  customerLimitCourse,
  judge,
  planLimitCourse,
  type TriedLimitKey,
} from "@/lib/usage/dry-run-judge";
import {
  type DryRunScope,
  dryRunReport,
  edgeMinutesOf,
  type JudgedLimit,
  minuteOf,
  outsideSecond,
  refusedLimits,
} from "@/lib/usage/dry-run-report";
import type { LiveTraffic } from "@/lib/usage/live-traffic";
import { MINUTE_MS, SECOND_MS } from "@/lib/usage/time";
import { readUsage } from "@/lib/usage/usage-read";
import { bucketsOf } from "@/lib/vocabulary";
import type { Outcome } from "./plans";
import { customerName, detailRange, minutesFrom, namesOf, type UsageContext } from "./usage";
import type { Range } from "./usage-range";

/**
 * planDryRun reports what each of a plan's dry-run limits (those it has, and those tried in the
 * range since promoted or removed) would have refused over the range (default 24 h), each only
 * while the plan had it as a dry-run limit (see `judge`).
 */
export async function planDryRun(
  ctx: UsageContext,
  live: LiveTraffic,
  planId: number,
  input: { from?: number; to?: number },
): Promise<Outcome<DryRunAnswer>> {
  const range = detailRange(input, ctx.clock.now());
  if (!range.ok) return range;
  const plan = getPlan(ctx.db, planId);
  if (!plan) return { ok: false, status: 404, title: "Plan not found" };
  const scope = { planId };
  const history = planHistory(ctx.db, planId);
  const since = dryRunSinceOf(listPlanDryRunSince(ctx.db, planId));
  const current = bucketsOf(plan.limits)
    .filter((l) => l.dryRun)
    .map((l): TriedLimitKey => ({ ...shapeOf(l), source: "plan" }));
  const judged = judgeAll(ctx, scope, range.value, current, (limit) => ({
    course: planLimitCourse(history, limit),
    since: since.get(dryRunKey(limit)) ?? null,
  }));
  const names = namesOf(ctx.db);
  const limits = dryRunReport(
    ctx.db,
    scope,
    range.value,
    judged,
    (id) => customerName(names, id),
    minutesFrom(ctx),
    await decisionsOutside(ctx, live, scope, judged, range.value),
  );
  return { ok: true, value: { ...range.value, limits } };
}

/**
 * customerDryRun reports what the dry-run limits tried on one customer (its overrides', or its
 * plan's) would have refused of its traffic over the range (default 24 h), each only while it
 * was tried on the customer: a plan's while no override of its operation replaced it, an
 * override's until it expired (see `customerLimitCourse`).
 */
export async function customerDryRun(
  ctx: UsageContext,
  live: LiveTraffic,
  customerId: number,
  input: { from?: number; to?: number },
): Promise<Outcome<DryRunAnswer>> {
  const range = detailRange(input, ctx.clock.now());
  if (!range.ok) return range;
  const customer = getCustomer(ctx.db, customerId);
  if (!customer) return { ok: false, status: 404, title: "Customer not found" };
  const scope = { customerId };
  const history = customerHistory(ctx.db, customer);
  // Only bucket limits are ever dry-run (quota rows refuse it: QUOTA_DRY_RUN_RULE).
  const overrides = listCustomerOverrides(ctx.db, customerId)
    .filter((row) => row.dryRun && row.periodMs !== null)
    .map((row) => ({ ...row, periodMs: row.periodMs ?? 0 }));
  const since = {
    plan: dryRunSinceOf(listPlanDryRunSince(ctx.db, customer.planId)),
    override: dryRunSinceOf(overrides),
  };
  const current: TriedLimitKey[] = [
    ...bucketsOf(getPlan(ctx.db, customer.planId)?.limits ?? [])
      .filter((l) => l.dryRun)
      .map((l) => ({ ...shapeOf(l), source: "plan" as const })),
    ...overrides.map((l) => ({ ...shapeOf(l), source: "override" as const })),
  ];
  const judged = judgeAll(ctx, scope, range.value, current, (limit) => ({
    course: customerLimitCourse(history, limit),
    since: since[limit.source].get(dryRunKey(limit)) ?? null,
  }));
  const limits = dryRunReport(
    ctx.db,
    scope,
    range.value,
    judged,
    () => customer.name,
    minutesFrom(ctx),
    await decisionsOutside(ctx, live, scope, judged, range.value),
  );
  return { ok: true, value: { ...range.value, limits } };
}

function shapeOf(l: Omit<TriedLimitKey, "source">) {
  return { operation: l.operation, count: l.count, periodMs: l.periodMs };
}

/**
 * judgeAll judges the scope's current dry-run limits and those with refusals in the range, each
 * once, by its course and stored start.
 */
function judgeAll(
  ctx: UsageContext,
  scope: DryRunScope,
  range: Range,
  current: readonly TriedLimitKey[],
  storyOf: (limit: TriedLimitKey) => { course: Course; since: number | null },
): JudgedLimit[] {
  const keys = new Map<string, TriedLimitKey>();
  for (const limit of [...current, ...refusedLimits(ctx.db, scope, range, minutesFrom(ctx))]) {
    keys.set(`${dryRunKey(limit)}|${limit.source}`, limit);
  }
  const now = ctx.clock.now();
  return [...keys.values()].map((limit) => {
    const { course, since } = storyOf(limit);
    return { ...limit, ...judge(course, range, now, since) };
  });
}

/**
 * decisionsOutside counts, for each judged limit, the scope's decisions of its operation in the
 * edge minutes of its tried intervals (read whole from the rollups) that fell outside them: from
 * the live view's seconds, while it holds that minute (the last 5 minutes), for the customers
 * the rollups have in that minute. 0 where it cannot tell.
 */
async function decisionsOutside(
  ctx: UsageContext,
  live: LiveTraffic,
  scope: DryRunScope,
  judged: readonly JudgedLimit[],
  range: Range,
): Promise<(limit: JudgedLimit) => number> {
  const now = ctx.clock.now();
  const held = now - MAX_TRAFFIC_SECONDS * SECOND_MS;
  const edges = new Map<JudgedLimit, Set<number>>();
  for (const limit of judged) {
    const minutes = edgeMinutesOf(limit.tried, range).filter((m) => m >= held);
    if (minutes.length > 0) edges.set(limit, new Set(minutes));
  }
  if (edges.size === 0) return () => 0;
  const customerIds = new Set<number>();
  for (const minute of new Set([...edges.values()].flatMap((m) => [...m]))) {
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
    const minutes = edges.get(limit);
    if (!minutes) return 0;
    let count = 0;
    for (const id of customerIds) {
      for (const s of seconds.get(`${id}|${limit.operation}`) ?? []) {
        if (minutes.has(minuteOf(s.t)) && outsideSecond(s.t, limit.tried)) {
          count += s.allowed + s.denied;
        }
      }
    }
    return count;
  };
}
