import { describe, expect, it } from "vitest";
import {
  ACTION_LABELS,
  AUDITED,
  actionLabel,
  describeChange,
  entityOf,
} from "@/components/audit/audit-format";
import { formatDateTime } from "@/lib/time-format";
import { AUDIT_ACTIONS } from "@/lib/vocabulary";

const entry = {
  entityType: "customer",
  entityId: "2",
  entityName: "Acme",
  lastKnownName: null,
  before: null,
  after: null,
};

describe("the audit log's words", () => {
  // Regression: the log showed raw codes such as "customer.reset-buckets".
  it("names every action in words", () => {
    for (const action of AUDIT_ACTIONS) {
      expect(ACTION_LABELS[action]).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
      expect(actionLabel(action)).not.toContain(".");
    }
    expect(actionLabel("customer.reset-buckets")).toBe("Buckets reset");
    expect(actionLabel("webhook.fire")).toBe("webhook.fire");
  });

  // Regression: the page said it logs "plans, customers and overrides"; service tokens are too.
  it("says what the log records changes to, every kind of it", () => {
    expect(AUDITED).toBe(
      "plans, customers (key rotations and bucket resets included), overrides, service tokens, gateway route rules, quota grants, and operation classes",
    );
  });

  // Regression: a reset read "buckets 4 → 0".
  it("counts the buckets a reset cleared", () => {
    const reset = {
      action: "customer.reset-buckets",
      before: { buckets: 4 },
      after: { buckets: 0 },
    };
    expect(describeChange(reset)).toEqual({
      kind: "note",
      text: "4 buckets cleared: every limit starts full",
    });
    expect(describeChange({ ...reset, before: { buckets: 1 } })).toEqual({
      kind: "note",
      text: "1 bucket cleared: every limit starts full",
    });
    expect(describeChange({ ...reset, before: { buckets: 0 } }).kind).toBe("note");
    expect(
      describeChange({ action: "customer.update", before: { name: "A" }, after: { name: "B" } }),
    ).toEqual({ kind: "changed", changes: [{ field: "name", before: "A", after: "B" }] });
  });

  it("says what a save of the route rules changed, and names the list, linked", () => {
    const health = {
      method: "GET",
      pattern: "/health",
      unmetered: true,
      operation: null,
      cost: null,
    };
    const exports = {
      method: "POST",
      pattern: "/v1/exports",
      unmetered: false,
      operation: null,
      cost: 5,
    };
    expect(
      describeChange({
        action: "route-rules.set",
        before: { rules: [health] },
        after: { rules: [exports] },
      }),
    ).toEqual({
      kind: "note",
      text: "Add POST /v1/exports: 5 tokens of the method's class; Remove GET /health: unmetered",
    });
    expect(
      describeChange({ action: "route-rules.set", before: { rules: [] }, after: { rules: [] } }),
    ).toEqual({ kind: "note", text: "Saved unchanged" });
    expect(
      entityOf({ ...entry, entityType: "route-rules", entityId: null, entityName: null }),
    ).toEqual({ name: "Gateway routes", href: "/routes", gone: false });
  });

  // Regression: the log said "customer #2" where the customer has a name.
  it("names a customer or plan by its current name, and a deleted one by its recorded name", () => {
    expect(entityOf(entry)).toEqual({ name: "Acme", href: "/customers/2", gone: false });
    expect(entityOf({ ...entry, entityType: "plan", entityName: "Pro" })).toEqual({
      name: "Pro",
      href: "/plans/2",
      gone: false,
    });
    expect(entityOf({ ...entry, entityName: null, before: { name: "Old Acme" } })).toEqual({
      name: "Old Acme",
      gone: true,
    });
    expect(entityOf({ ...entry, entityName: null })).toEqual({ name: "customer #2", gone: true });
  });

  // Regression: a deleted customer's key rotation read "customer #64 (deleted)" among entries
  // that named it "Paging test x (deleted)".
  it("names a deleted entity by its last known name on every entry, even one with no name", () => {
    const gone = { ...entry, entityName: null, lastKnownName: "Paging test x" };
    expect(entityOf({ ...gone, before: { apiKeyPrefix: "rk_a" } })).toEqual({
      name: "Paging test x",
      gone: true,
    });
    expect(entityOf({ ...gone, before: { name: "Paging test" } }).name).toBe("Paging test x");
  });

  // Regression: times had no zone, so an entry's hour was ambiguous to a reader elsewhere.
  it("writes times to the second with their zone", () => {
    const at = Date.UTC(2026, 10, 22, 14, 3, 5);
    expect(formatDateTime(at, "UTC")).toBe("22 Nov 2026, 14:03:05 UTC");
    expect(formatDateTime(at, "America/New_York")).toBe("22 Nov 2026, 09:03:05 UTC-05:00");
  });
});
