import { MINUTE_MS as MINUTE, SECOND_MS as SECOND } from "../lib/limiter/units";
import type { LimitRow } from "../lib/vocabulary";
import type { Tx } from "./client";
import { insertCustomer } from "./queries/customers";
import { insertPlan } from "./queries/plans";

function limits(read: [number, number][], write: [number, number][]): LimitRow[] {
  return [
    ...read.map(([count, periodMs]) => ({ operation: "read" as const, count, periodMs })),
    ...write.map(([count, periodMs]) => ({ operation: "write" as const, count, periodMs })),
  ];
}

/** DEMO_PLANS are the plans a new database starts with: reads are granted more than writes. */
export const DEMO_PLANS = [
  {
    slug: "free",
    name: "Free",
    description: "For trying the API out.",
    limits: limits(
      [
        [5, SECOND],
        [100, MINUTE],
      ],
      [
        [1, SECOND],
        [20, MINUTE],
      ],
    ),
  },
  {
    slug: "pro",
    name: "Pro",
    description: "For production apps.",
    limits: limits(
      [
        [20, SECOND],
        [1_000, MINUTE],
      ],
      [
        [5, SECOND],
        [200, MINUTE],
      ],
    ),
  },
  {
    slug: "enterprise",
    name: "Enterprise",
    description: "For heavy, steady traffic.",
    limits: limits(
      [
        [100, SECOND],
        [10_000, MINUTE],
      ],
      [
        [20, SECOND],
        [2_000, MINUTE],
      ],
    ),
  },
];

/** seedPlans stores the demo plans (free, pro, enterprise) and returns their ids in that order. */
export function seedPlans(tx: Tx, now: number): number[] {
  return DEMO_PLANS.map((plan) => insertPlan(tx, plan, now).id);
}

/** seedDemo stores the demo plans and a demo customer on the free plan, with the given key. */
export function seedDemo(tx: Tx, demoKey: { hash: string; prefix: string }, now: number): number {
  const ids = seedPlans(tx, now);
  return insertCustomer(
    tx,
    {
      name: "Demo customer",
      planId: ids[0] as number,
      apiKeyHash: demoKey.hash,
      apiKeyPrefix: demoKey.prefix,
    },
    now,
  );
}
