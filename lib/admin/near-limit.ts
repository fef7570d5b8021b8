import type { z } from "zod";
import { activeOverride, limitsFor } from "@/lib/policy/snapshot";
import type { nearLimitQuerySchema } from "@/lib/schemas/usage.schema";
import { type NearLimit, nearLimits } from "@/lib/usage/near-limit";
import type { Outcome } from "./plans";
import {
  DEFAULT_SPAN_MS,
  MAX_DETAIL_SPAN_MS,
  minutesFrom,
  namesOf,
  type UsageContext,
} from "./usage";
import { resolveRange } from "./usage-range";

/** NearLimitView is a near-limit finding with the customer's name and current plan. */
export type NearLimitView = NearLimit & {
  name: string;
  planId: number | null;
  planSlug: string | null;
};

/**
 * nearLimitCustomers lists the customers whose peak use over the range (default 24 h) reached
 * `minShare` (0.8) of one of their current enforced limits (see NearLimit for the measure).
 */
export function nearLimitCustomers(
  ctx: UsageContext,
  input: z.infer<typeof nearLimitQuerySchema>,
): Outcome<{
  fromMs: number;
  toMs: number;
  minShare: number;
  resolutionMs: number;
  customers: NearLimitView[];
}> {
  const now = ctx.clock.now();
  const range = resolveRange(input, now, DEFAULT_SPAN_MS, MAX_DETAIL_SPAN_MS);
  if (!range.ok) return range;
  const minShare = input.minShare ?? 0.8;
  const snapshot = ctx.policy.snapshot;
  const found = nearLimits(
    ctx.db,
    { ...input, ...range.value },
    (customerId, operation) => {
      const customer = snapshot.byId.get(customerId);
      if (!customer) return undefined;
      return {
        limits: limitsFor(customer, operation, now),
        source: activeOverride(customer, operation, now) ? "override" : "plan",
      };
    },
    { minShare, minutesFromMs: minutesFrom(ctx) },
  );
  const names = namesOf(ctx.db);
  const customers = found.nearLimits.slice(0, input.limit ?? 50).map((n) => {
    const c = names.get(n.customerId);
    return {
      ...n,
      name: c?.name ?? `Customer #${n.customerId}`,
      planId: c?.planId ?? null,
      planSlug: c?.planSlug ?? null,
    };
  });
  return {
    ok: true,
    value: { ...range.value, minShare, resolutionMs: found.resolutionMs, customers },
  };
}
