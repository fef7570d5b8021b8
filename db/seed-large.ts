import type Database from "better-sqlite3";
import { DAY_MS } from "../lib/limiter/units";
import { AUDIT_ACTIONS, type AuditAction } from "../lib/vocabulary";
import { defaultAnchorDay } from "./queries/customers";

/** LargeSeedSize is how much a large seed makes. */
export interface LargeSeedSize {
  plans: number;
  customers: number;
  auditEntries: number;
}

/** LARGE_SEED is the size the dashboard is measured at: 50 plans, 10,000 customers, 100,000 audit entries. */
export const LARGE_SEED: LargeSeedSize = { plans: 50, customers: 10_000, auditEntries: 100_000 };

/** SeedKey is what a customer's key leaves in the database: its hash and its prefix. */
export interface SeedKey {
  hash: string;
  prefix: string;
}

/** SPAN_MS is how far back the seeded audit log reaches: 90 days. */
const SPAN_MS = 90 * DAY_MS;

const FIRST = [
  "Acme",
  "Globex",
  "Initech",
  "Umbrella",
  "Stark",
  "Wayne",
  "Hooli",
  "Vandelay",
  "Soylent",
  "Tyrell",
  "Cyberdyne",
  "Wonka",
  "Aperture",
  "Massive",
  "Oscorp",
  "Pied Piper",
  "Dunder",
  "Gringotts",
  "Monarch",
  "Nakatomi",
];
const SECOND = [
  "Analytics",
  "Labs",
  "Logistics",
  "Health",
  "Media",
  "Energy",
  "Foods",
  "Cloud",
  "Robotics",
  "Travel",
  "Bank",
  "Studio",
  "Systems",
  "Retail",
  "Games",
  "Security",
];

/** mulberry32 is a small seeded PRNG: the same seed makes the same database. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * seedLarge fills an empty, migrated database with `size` plans (each with a burst and a
 * sustained limit per operation), customers spread over them (1 in 20 suspended) and audit
 * entries over the 90 days before `now` (ms), all in one transaction through prepared
 * statements. `makeKey` issues each customer's key; the database keeps its hash and prefix.
 */
export function seedLarge(
  sqlite: Database.Database,
  size: LargeSeedSize,
  makeKey: () => SeedKey,
  now: number,
  seed = 11,
): void {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const insertPlan = sqlite.prepare(
    "INSERT INTO plans (slug, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  );
  const insertLimit = sqlite.prepare(
    "INSERT INTO plan_limits (plan_id, operation, count, period_ms) VALUES (?, ?, ?, ?)",
  );
  const insertCustomer = sqlite.prepare(
    "INSERT INTO customers (name, plan_id, status, api_key_hash, api_key_prefix, billing_anchor_day, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertAudit = sqlite.prepare(
    "INSERT INTO audit_log (at, actor, action, entity_type, entity_id, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  sqlite.transaction(() => {
    const planIds: number[] = [];
    for (let p = 1; p <= size.plans; p++) {
      const tier = String(p).padStart(2, "0");
      const id = Number(
        insertPlan.run(`tier-${tier}`, `Tier ${tier}`, `Seeded plan ${p}.`, now - SPAN_MS, now)
          .lastInsertRowid,
      );
      insertLimit.run(id, "read", 5 * p, 1_000);
      insertLimit.run(id, "read", 200 * p, 60_000);
      insertLimit.run(id, "write", p, 1_000);
      insertLimit.run(id, "write", 40 * p, 60_000);
      planIds.push(id);
    }
    const customerIds: number[] = [];
    for (let c = 1; c <= size.customers; c++) {
      const key = makeKey();
      const name = `${pick(FIRST)} ${pick(SECOND)} ${c}`;
      const created = now - SPAN_MS + Math.floor((c / size.customers) * SPAN_MS);
      const status = random() < 0.05 ? "suspended" : "active";
      const id = Number(
        insertCustomer.run(
          name,
          pick(planIds),
          status,
          key.hash,
          key.prefix,
          defaultAnchorDay(created),
          created,
          created,
        ).lastInsertRowid,
      );
      customerIds.push(id);
    }
    const actors = ["admin", "admin", "admin", "token:deploy-bot", "token:billing-sync"];
    for (let e = 0; e < size.auditEntries; e++) {
      const at = now - SPAN_MS + Math.floor((e / size.auditEntries) * SPAN_MS);
      const action: AuditAction = pick(AUDIT_ACTIONS);
      const onPlan = action.startsWith("plan.");
      const entityId = onPlan ? pick(planIds) : pick(customerIds);
      const [before, after] = auditValues(action, random);
      insertAudit.run(
        at,
        pick(actors),
        action,
        onPlan ? "plan" : "customer",
        String(entityId),
        before,
        after,
      );
    }
  })();
}

function auditValues(action: AuditAction, random: () => number): [string | null, string | null] {
  const json = (v: unknown) => JSON.stringify(v);
  switch (action) {
    case "customer.reset-buckets": {
      const n = 1 + Math.floor(random() * 4);
      return [json({ buckets: n }), json({ buckets: 0 })];
    }
    case "customer.suspend":
      return [json({ status: "active" }), json({ status: "suspended" })];
    case "customer.activate":
      return [json({ status: "suspended" }), json({ status: "active" })];
    case "override.set":
      return [
        json({ operation: "read", override: null }),
        json({
          operation: "read",
          override: { limits: [{ count: 50, periodMs: 1_000 }], expiresAt: null },
        }),
      ];
    case "override.clear":
      return [
        json({
          operation: "write",
          override: { limits: [{ count: 5, periodMs: 1_000 }], expiresAt: null },
        }),
        json({ operation: "write", override: null }),
      ];
    case "plan.update":
      return [
        json({ description: "For small teams." }),
        json({ description: "For growing teams." }),
      ];
    case "customer.update":
      return [json({ name: "Old name" }), json({ name: "New name" })];
    case "customer.rotate-key":
      return [json({ apiKeyPrefix: "rk_old0000" }), json({ apiKeyPrefix: "rk_new0000" })];
    case "plan.create":
    case "customer.create":
      return [null, json({ name: "Created by the seed" })];
    case "plan.delete":
    case "customer.delete":
      return [json({ name: "Deleted by the seed" }), null];
    default:
      return [null, null];
  }
}
