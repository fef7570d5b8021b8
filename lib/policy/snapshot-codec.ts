import {
  OLDEST_READABLE_FORMAT,
  POLICY_ROWS_FORMAT,
  policyRowsSchema,
} from "@/lib/schemas/policy-rows.schema";
import { DEFAULT_CLASSES, type QuotaPeriod } from "@/lib/vocabulary";
import type { PolicyRows } from "./snapshot";

/**
 * ANCHOR_DAY_OF_OLDER_SNAPSHOTS is the billing anchor day of a customer in a snapshot written by
 * a control plane of a release before billing anchors (which never leaves it out since): the 1st,
 * calendar months. Its true day (the day of its creation) is not in the snapshot, so an edge
 * cannot know it; such a control plane writes no quotas either, so nothing decides by this day
 * before a control plane of this release writes the snapshot again, with every customer's day.
 */
export const ANCHOR_DAY_OF_OLDER_SNAPSHOTS = 1;

/**
 * encodePolicyRows writes the rows a snapshot is built from as the JSON text the control plane
 * stores in Redis. Each field is picked by name: rows read from the database carry more (a key's
 * prefix, creation times), and none of it may reach Redis. Keys and tokens appear only as their
 * SHA-256 digests, which is all a decision needs. Route rules are written only when there are
 * some: edges of an earlier version (whose strict reader refuses a field it does not know) keep
 * reading the policy of a control plane that has none.
 */
export function encodePolicyRows(rows: PolicyRows): string {
  return JSON.stringify({
    format: POLICY_ROWS_FORMAT,
    classes: [...(rows.classes ?? DEFAULT_CLASSES)],
    plans: rows.plans.map((plan) => ({
      id: plan.id,
      slug: plan.slug,
      name: plan.name,
      limits: plan.limits.map((l) => ({
        operation: l.operation,
        ...limitFields(l),
        // Absent means enforced, as in the rows.
        ...(l.dryRun ? { dryRun: true } : {}),
      })),
    })),
    customers: rows.customers.map((customer) => ({
      id: customer.id,
      name: customer.name,
      status: customer.status,
      planId: customer.planId,
      apiKeyHash: customer.apiKeyHash,
      billingAnchorDay: customer.billingAnchorDay,
      // Absent when there are none: most customers have no grant.
      ...(customer.grants ? { grants: customer.grants } : {}),
    })),
    overrides: rows.overrides.map((o) => ({
      customerId: o.customerId,
      operation: o.operation,
      ...limitFields(o),
      dryRun: o.dryRun,
      expiresAt: o.expiresAt,
    })),
    serviceTokens: rows.serviceTokens.map((token) => ({
      id: token.id,
      name: token.name,
      tokenHash: token.tokenHash,
      scopes: [...token.scopes],
    })),
    revokedServiceTokens: (rows.revokedServiceTokens ?? []).map((token) => ({
      id: token.id,
      name: token.name,
      tokenHash: token.tokenHash,
    })),
    ...(rows.routeRules && rows.routeRules.length > 0
      ? {
          routeRules: rows.routeRules.map((rule) => ({
            method: rule.method,
            pattern: rule.pattern,
            unmetered: rule.unmetered,
            operation: rule.operation,
            cost: rule.cost,
          })),
        }
      : {}),
  });
}

/**
 * limitFields are a limit's fields as the snapshot writes them: a bucket's count and periodMs, a
 * quota's count, period and time zone (always named). An edge of a release before quotas refuses
 * a snapshot holding a quota row (its strict reader knows no `period`) and keeps its policy.
 */
function limitFields(
  l:
    | { count: number; periodMs: number }
    | { count: number; period: QuotaPeriod; timeZone?: string },
) {
  return "period" in l
    ? { count: l.count, period: l.period, timeZone: l.timeZone ?? "UTC" }
    : { count: l.count, periodMs: l.periodMs };
}

/**
 * SnapshotProblem says why rows cannot be used: `unreadable` (not JSON, or a field out of place),
 * `older-format` (written by an earlier version of the control plane, which a control plane of
 * this version rewrites) or `newer-format` (written by a later version: upgrade this instance).
 */
export type SnapshotProblem = "unreadable" | "older-format" | "newer-format";

/** DecodedRows are the rows of a snapshot read from Redis, or why they cannot be used. */
export type DecodedRows =
  | { ok: true; rows: PolicyRows }
  | { ok: false; problem: SnapshotProblem; reason: string };

/**
 * decodePolicyRows reads a snapshot written by `encodePolicyRows`, validated whole: text that is
 * not JSON, another format, or any field out of place gives a reason instead of rows, and the
 * caller keeps the policy it has. A customer without a billing anchor day (an older control
 * plane's) is given ANCHOR_DAY_OF_OLDER_SNAPSHOTS.
 */
export function decodePolicyRows(text: string): DecodedRows {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: "unreadable", reason: "it is not JSON" };
  }
  const format = (value as { format?: unknown } | null)?.format;
  const readable =
    typeof format === "number" && format >= OLDEST_READABLE_FORMAT && format <= POLICY_ROWS_FORMAT;
  if (!readable) {
    const older = typeof format === "number" && format < OLDEST_READABLE_FORMAT;
    const newer = typeof format === "number" && format > POLICY_ROWS_FORMAT;
    return {
      ok: false,
      problem: older ? "older-format" : newer ? "newer-format" : "unreadable",
      reason: `its format is ${JSON.stringify(format) ?? "missing"}, and this instance reads format ${POLICY_ROWS_FORMAT}: ${
        older
          ? "an earlier version of the control plane wrote it; a control plane of this version rewrites it"
          : "run the same version on the control plane and the edges"
      }`,
    };
  }
  const parsed = policyRowsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem: "unreadable",
      reason: `${issue?.path.join(".") || "the snapshot"}: ${issue?.message ?? "invalid"}`,
    };
  }
  // A format-1 snapshot names no classes: its control plane knew only read and write.
  const { format: _format, classes = [...DEFAULT_CLASSES], customers, ...rest } = parsed.data;
  return {
    ok: true,
    rows: {
      classes,
      ...rest,
      customers: customers.map((c) =>
        c.billingAnchorDay === undefined
          ? { ...c, billingAnchorDay: ANCHOR_DAY_OF_OLDER_SNAPSHOTS }
          : { ...c, billingAnchorDay: c.billingAnchorDay },
      ),
    },
  };
}
