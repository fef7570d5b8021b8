import type { z } from "zod";
import { activeOverride, limitsFor, type PolicySnapshot } from "@/lib/policy/snapshot";
import type { NearLimitAnswer, PeakNearLimit } from "@/lib/schemas/near-limit-answer.schema";
import { MAX_TRAFFIC_SECONDS } from "@/lib/schemas/query.schema";
import type { nearLimitQuerySchema } from "@/lib/schemas/usage.schema";
import { takesOf } from "@/lib/usage/bucket-history";
import type { LiveScope, LiveTraffic } from "@/lib/usage/live-traffic";
import {
  type CustomerLimits,
  measuredAt,
  nearLimits,
  peaksOf,
  withRefusals,
} from "@/lib/usage/near-limit";
import { SECOND_MS } from "@/lib/usage/time";
import { bucketsOf, type LimitShape, type Operation } from "@/lib/vocabulary";
import type { Outcome } from "./plans";
import { customerName, detailRange, minutesFrom, namesOf, type UsageContext } from "./usage";

/** MAX_PER_SECOND_CUSTOMERS bounds the customers whose seconds one answer reads, busiest first. */
const MAX_PER_SECOND_CUSTOMERS = 200;

/** RollupNearLimits is the rollups' part of a near-limit answer (see nearLimitsFromRollups). */
export interface RollupNearLimits {
  fromMs: number;
  toMs: number;
  now: number;
  minShare: number;
  limitsOf: (customerId: number, operation: Operation) => CustomerLimits | undefined;
  found: ReturnType<typeof nearLimits>;
}

/**
 * nearLimitsFromRollups measures, from the rollups, how deep the customers drained the buckets
 * of their current enforced limits of at least a rollup step over the range (default 24 h), and
 * finds those refused by their limits: the part of the near-limit answer SQLite gives.
 */
export function nearLimitsFromRollups(
  ctx: UsageContext,
  input: z.infer<typeof nearLimitQuerySchema>,
): Outcome<RollupNearLimits> {
  const now = ctx.clock.now();
  const range = detailRange(input, now);
  if (!range.ok) return range;
  const minShare = input.minShare ?? 0.8;
  const snapshot = ctx.policy.snapshot;
  const limitsOf = (customerId: number, operation: Operation): CustomerLimits | undefined => {
    const customer = snapshot.byId.get(customerId);
    if (!customer) return undefined;
    return {
      // Quotas are not replayed from the rollups: the customer's inspect answer reports them.
      limits: bucketsOf(limitsFor(customer, operation, now)),
      source: activeOverride(customer, operation, now) ? "override" : "plan",
    };
  };
  const found = nearLimits(ctx.db, { ...input, ...range.value }, limitsOf, {
    minShare,
    minutesFromMs: minutesFrom(ctx),
  });
  return { ok: true, value: { ...range.value, now, minShare, limitsOf, found } };
}

/**
 * nearLimitCustomers lists the customers who drained the bucket of one of their current enforced
 * limits to `minShare` (0.8) of it over the range (default 24 h), and those refused by any limit
 * (at 100%): limits of at least the rollups' step are replayed from the rollups, shorter ones
 * from the live view's seconds (`live`) over the part of the range it holds (see NearLimit).
 */
export async function nearLimitCustomers(
  ctx: UsageContext,
  live: LiveTraffic,
  input: z.infer<typeof nearLimitQuerySchema>,
): Promise<Outcome<NearLimitAnswer>> {
  const rollups = nearLimitsFromRollups(ctx, input);
  if (!rollups.ok) return rollups;
  const { fromMs, toMs, now, minShare, limitsOf, found } = rollups.value;
  const refusedBy = new Map(found.refused.map((r) => [`${r.customerId}|${r.operation}`, r]));
  const seconds = await perSecondPeaks(live, ctx.policy.snapshot, limitsOf, {
    ...input,
    fromMs,
    toMs,
    now,
    minShare,
    resolutionMs: found.resolutionMs,
    refusedOf: (key) => refusedBy.get(key)?.refused ?? 0,
  });
  const all = withRefusals(
    [...found.nearLimits, ...seconds.peaks],
    found.refused,
    found.resolutionMs,
    (customerId, operation, limit) =>
      seconds.measured.has(`${customerId}|${operation}|${limit.count}/${limit.periodMs}`),
  );
  const names = namesOf(ctx.db);
  const customers = all.slice(0, input.limit ?? 50).map((n) => {
    const c = names.get(n.customerId);
    return {
      ...n,
      name: customerName(names, n.customerId),
      planId: c?.planId ?? null,
      planSlug: c?.planSlug ?? null,
    };
  });
  return {
    ok: true,
    value: {
      fromMs,
      toMs,
      minShare,
      resolutionMs: found.resolutionMs,
      perSecondFromMs: seconds.fromMs,
      perSecondScope: seconds.scope,
      customers,
    },
  };
}

/**
 * perSecondPeaks replays the buckets of the limits shorter than the rollups' step from the live
 * view's seconds, over the part of the range it holds (from full at its start): for the customers with decisions in it that match
 * the filters (their current plan), the busiest MAX_PER_SECOND_CUSTOMERS. `measured` names the
 * limits it measured ("<customer>|<operation>|<count>/<periodMs>").
 */
async function perSecondPeaks(
  live: LiveTraffic,
  snapshot: PolicySnapshot,
  limitsOf: (customerId: number, operation: Operation) => CustomerLimits | undefined,
  q: {
    fromMs: number;
    toMs: number;
    now: number;
    minShare: number;
    resolutionMs: number;
    customerId?: number;
    planId?: number;
    operation?: Operation;
    refusedOf: (key: string) => number;
  },
): Promise<{
  peaks: PeakNearLimit[];
  measured: Set<string>;
  fromMs: number | null;
  scope: LiveScope | null;
}> {
  const held = q.now - MAX_TRAFFIC_SECONDS * SECOND_MS;
  const fromMs = Math.ceil(Math.max(q.fromMs, held) / SECOND_MS) * SECOND_MS;
  const toMs = Math.min(q.toMs, q.now);
  const none = { peaks: [], measured: new Set<string>(), fromMs: null, scope: null };
  if (toMs - fromMs < SECOND_MS) return none;
  const { totals } = await live.totals(q.now, MAX_TRAFFIC_SECONDS);
  const wanted: {
    customerId: number;
    operation: Operation;
    policy: CustomerLimits;
    short: LimitShape[];
  }[] = [];
  const busy = [...totals]
    .filter(([id]) => q.customerId === undefined || id === q.customerId)
    .filter(([id]) => q.planId === undefined || snapshot.byId.get(id)?.planId === q.planId)
    .sort((a, b) => b[1].allowed + b[1].denied - (a[1].allowed + a[1].denied));
  const ids: number[] = [];
  for (const [customerId] of busy) {
    let any = false;
    for (const operation of q.operation ? [q.operation] : snapshot.classes) {
      const policy = limitsOf(customerId, operation);
      const short = policy?.limits.filter((l) => !measuredAt(l, q.resolutionMs)) ?? [];
      if (policy && short.length > 0) {
        wanted.push({ customerId, operation, policy, short });
        any = true;
      }
    }
    if (any) ids.push(customerId);
    if (ids.length >= MAX_PER_SECOND_CUSTOMERS) break;
  }
  if (ids.length === 0) return { ...none, fromMs };
  const view = await live.takenSeconds(q.now, MAX_TRAFFIC_SECONDS, ids);
  const peaks: PeakNearLimit[] = [];
  const measured = new Set<string>();
  for (const { customerId, operation, policy, short } of wanted) {
    const key = `${customerId}|${operation}`;
    // The takes as the inspector replays them: each second's spread over its decisions.
    const takes = (view.seconds.get(key) ?? [])
      .filter((s) => s.t >= fromMs && s.t < toMs)
      .flatMap(takesOf);
    for (const l of short) measured.add(`${key}|${l.count}/${l.periodMs}`);
    peaks.push(
      ...peaksOf(customerId, operation, policy.source, takes, short, {
        fromMs,
        resolutionMs: SECOND_MS,
        minShare: q.minShare,
        refused: q.refusedOf(key),
      }),
    );
  }
  return { peaks, measured, fromMs, scope: view.scope };
}
