import { describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/policy/api-key";
import { buildSnapshot, type PolicyRows } from "@/lib/policy/snapshot";
import {
  ANCHOR_DAY_OF_OLDER_SNAPSHOTS,
  decodePolicyRows,
  encodePolicyRows,
} from "@/lib/policy/snapshot-codec";
import { OLDEST_READABLE_FORMAT, POLICY_ROWS_FORMAT } from "@/lib/schemas/policy-rows.schema";

const HOUR = 3_600_000;
const DIGEST = "ab".repeat(32);
const GRANT = "exports|month|Europe/Paris|1798758000000";

function rows(): PolicyRows {
  return {
    classes: ["read", "write", "exports"],
    plans: [
      {
        id: 1,
        slug: "pro",
        name: "Pro",
        limits: [
          { operation: "read", count: 100, periodMs: HOUR },
          { operation: "read", count: 50, periodMs: HOUR, dryRun: true },
          { operation: "exports", count: 2, periodMs: HOUR },
        ],
      },
    ],
    customers: [
      {
        id: 7,
        name: "Acme",
        status: "suspended",
        planId: 1,
        apiKeyHash: DIGEST,
        billingAnchorDay: 14,
      },
      {
        id: 8,
        name: "Globex",
        status: "active",
        planId: 1,
        apiKeyHash: "12".repeat(32),
        billingAnchorDay: 31,
        grants: { [GRANT]: 500, "read|day|UTC|1798675200000": 7 },
      },
    ],
    overrides: [
      {
        customerId: 7,
        operation: "write",
        count: 5,
        periodMs: 60_000,
        dryRun: false,
        expiresAt: 1_900_000_000_000,
      },
      {
        customerId: 7,
        operation: "write",
        count: 9,
        periodMs: 60_000,
        dryRun: true,
        expiresAt: null,
      },
    ],
    serviceTokens: [{ id: 3, name: "api", tokenHash: "cd".repeat(32), scopes: ["peek"] }],
    revokedServiceTokens: [{ id: 2, name: "old api", tokenHash: "ef".repeat(32) }],
  };
}

describe("the policy snapshot's form in Redis", () => {
  it("round-trips every field a decision needs: limits, status, overrides with expiry, tokens", () => {
    const decoded = decodePolicyRows(encodePolicyRows(rows()));
    expect(decoded).toEqual({ ok: true, rows: rows() });
  });

  it("reads a snapshot written without revoked tokens (an older control plane's)", () => {
    const { revokedServiceTokens: _revoked, ...older } = rows();
    const text = JSON.stringify({
      ...JSON.parse(encodePolicyRows(rows())),
      revokedServiceTokens: undefined,
    });
    expect(decodePolicyRows(text)).toEqual({ ok: true, rows: older });
  });

  it("round-trips route rules in their order", () => {
    const withRules: PolicyRows = {
      ...rows(),
      routeRules: [
        { method: "GET", pattern: "/health", unmetered: true, operation: null, cost: null },
        { method: "*", pattern: "/v1/exports/**", unmetered: false, operation: "write", cost: 5 },
        { method: "POST", pattern: "/v1/*", unmetered: false, operation: null, cost: null },
      ],
    };
    expect(decodePolicyRows(encodePolicyRows(withRules))).toEqual({ ok: true, rows: withRules });
  });

  it("writes no route rules when there are none, and reads a snapshot without them as none", () => {
    const text = encodePolicyRows({ ...rows(), routeRules: [] });
    expect(JSON.parse(text)).not.toHaveProperty("routeRules");
    const decoded = decodePolicyRows(text);
    expect(decoded).toEqual({ ok: true, rows: rows() });
    if (!decoded.ok) throw new Error("not decoded");
    expect(buildSnapshot(decoded.rows, 0).routes.rules).toEqual([]);
  });

  it("refuses a snapshot with a route rule out of place, keeping the policy it has", () => {
    const bad = (rule: Record<string, unknown>) =>
      decodePolicyRows(
        JSON.stringify({ ...JSON.parse(encodePolicyRows(rows())), routeRules: [rule] }),
      );
    const ok = { method: "GET", pattern: "/a", unmetered: false, operation: null, cost: null };
    expect(bad(ok).ok).toBe(true);
    expect(bad({ ...ok, pattern: "/**/a" })).toMatchObject({ ok: false, problem: "unreadable" });
    expect(bad({ ...ok, cost: 0 })).toMatchObject({ ok: false, problem: "unreadable" });
    expect(bad({ ...ok, unmetered: true, cost: 2 })).toMatchObject({ ok: false });
    expect(bad({ ...ok, extra: 1 })).toMatchObject({ ok: false });
  });

  it("carries each customer's billing anchor day, and its grants only when it has some", () => {
    const written = JSON.parse(encodePolicyRows(rows())).customers;
    expect(written[0]).toEqual({
      id: 7,
      name: "Acme",
      status: "suspended",
      planId: 1,
      apiKeyHash: DIGEST,
      billingAnchorDay: 14,
    });
    expect(written[1].billingAnchorDay).toBe(31);
    expect(written[1].grants).toEqual({ [GRANT]: 500, "read|day|UTC|1798675200000": 7 });
  });

  // An older control plane wrote no anchors: the edge cannot know a customer's creation day, so
  // every customer of such a snapshot gets the one documented day (calendar months).
  it("reads a snapshot written without billing anchor days as anchored on the 1st", () => {
    const written = JSON.parse(encodePolicyRows(rows()));
    for (const c of written.customers) delete c.billingAnchorDay;
    const decoded = decodePolicyRows(JSON.stringify(written));
    expect(ANCHOR_DAY_OF_OLDER_SNAPSHOTS).toBe(1);
    expect(decoded.ok && decoded.rows.customers.map((c) => c.billingAnchorDay)).toEqual([1, 1]);
    expect(decoded.ok && decoded.rows.customers[1]?.grants).toEqual(rows().customers[1]?.grants);
  });

  // Snapshots carry the operation classes since format 2; a format-1 snapshot (a control plane
  // that knew only read and write) still decides, on those two.
  it("reads a format-1 snapshot, which names no classes, as read and write", () => {
    const { classes: _classes, ...older } = rows();
    const text = JSON.stringify({
      ...JSON.parse(encodePolicyRows(rows())),
      format: 1,
      classes: undefined,
      plans: [{ ...older.plans[0], limits: older.plans[0]?.limits.slice(0, 2) }],
    });
    const decoded = decodePolicyRows(text);
    expect(decoded.ok && decoded.rows.classes).toEqual(["read", "write"]);
    expect(decoded.ok && decoded.rows.plans[0]?.limits).toHaveLength(2);
  });

  it.each([
    ["format 2 without its classes", { classes: undefined }, "classes"],
    [
      "a limit of a class it does not name",
      { classes: ["read", "write"] },
      'plans.0.limits.2.operation: unknown class "exports"',
    ],
    [
      "an override of a class it does not name",
      { classes: ["read", "exports"] },
      'overrides.0.operation: unknown class "write"',
    ],
    [
      "a class name no class may have",
      { classes: ["read", "write", "exports", "Bad"] },
      "classes.3",
    ],
  ])("refuses %s", (_what, change, reason) => {
    const text = JSON.stringify({ ...JSON.parse(encodePolicyRows(rows())), ...change });
    const decoded = decodePolicyRows(text);
    expect(decoded.ok ? undefined : decoded.problem).toBe("unreadable");
    expect(decoded.ok ? "" : decoded.reason).toContain(reason);
  });

  it("writes only the fields it names: nothing else a database row carries reaches Redis", () => {
    const key = generateApiKey();
    const wide = rows() as unknown as { customers: Record<string, unknown>[] };
    // A row as the database returns it may carry more; a key must never leave with it.
    Object.assign(wide.customers[0] as object, { apiKeyPrefix: key.key.slice(0, 8), key: key.key });
    const text = encodePolicyRows(wide as unknown as PolicyRows);
    expect(text).not.toContain(key.key.slice(0, 8));
    expect(JSON.parse(text).customers[0]).toEqual(rows().customers[0]);
  });

  it.each([
    ["not JSON", "{", "it is not JSON"],
    [
      "another format",
      JSON.stringify({ ...JSON.parse(encodePolicyRows(rows())), format: 99 }),
      "format is 99",
    ],
    [
      "a key where a digest belongs",
      encodePolicyRows({
        ...rows(),
        customers: [
          {
            ...(rows().customers[0] as PolicyRows["customers"][number]),
            apiKeyHash: "rk_live_secret",
          },
        ],
      }),
      "customers.0.apiKeyHash: must be a SHA-256 hex digest",
    ],
    [
      "a billing anchor day past 31",
      encodePolicyRows({
        ...rows(),
        customers: [
          {
            ...(rows().customers[0] as PolicyRows["customers"][number]),
            billingAnchorDay: 32,
          },
        ],
      }),
      "customers.0.billingAnchorDay",
    ],
    [
      "a grant key that is not class|period|zone|start",
      encodePolicyRows({
        ...rows(),
        customers: [
          {
            ...(rows().customers[0] as PolicyRows["customers"][number]),
            grants: { "exports|year|UTC|0": 5 },
          },
        ],
      }),
      "customers.0.grants.exports|year|UTC|0: Invalid key in record",
    ],
    [
      "a grant of no extra",
      encodePolicyRows({
        ...rows(),
        customers: [
          {
            ...(rows().customers[0] as PolicyRows["customers"][number]),
            grants: { [GRANT]: 0 },
          },
        ],
      }),
      "customers.0.grants",
    ],
    [
      "a field it does not know",
      JSON.stringify({ ...JSON.parse(encodePolicyRows(rows())), extra: true }),
      "Unrecognized key",
    ],
  ])("refuses %s with a reason", (_what, text, reason) => {
    const decoded = decodePolicyRows(text);
    expect(decoded.ok).toBe(false);
    expect(decoded.ok ? "" : decoded.reason).toContain(reason);
  });

  it.each([
    ["text that is not JSON", "{", "unreadable"],
    ["a format that is not a number", { format: "1" }, "unreadable"],
    ["an earlier version's format", { format: OLDEST_READABLE_FORMAT - 1 }, "older-format"],
    ["a later version's format", { format: POLICY_ROWS_FORMAT + 1 }, "newer-format"],
    ["a field out of place", { extra: true }, "unreadable"],
  ])("says what is wrong with %s", (_what, change, problem) => {
    const text =
      typeof change === "string"
        ? change
        : JSON.stringify({ ...JSON.parse(encodePolicyRows(rows())), ...change });
    const decoded = decodePolicyRows(text);
    expect(decoded.ok ? undefined : decoded.problem).toBe(problem);
  });

  it("names its format, so an edge can refuse a newer control plane's", () => {
    expect(JSON.parse(encodePolicyRows(rows())).format).toBe(POLICY_ROWS_FORMAT);
  });
});
