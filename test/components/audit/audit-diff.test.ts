import { describe, expect, it } from "vitest";
import { formatValue, MAX_VALUE_CHARS, stableJson, summarize } from "@/components/audit/audit-diff";
import { formatDateTime } from "@/lib/time-format";

const plan = {
  id: 3,
  slug: "pro",
  name: "Pro",
  description: "",
  createdAt: 1,
  updatedAt: 1,
  limits: [
    { operation: "read", count: 50, periodMs: 60_000 },
    { operation: "write", count: 10, periodMs: 1_000 },
  ],
};

describe("summarize", () => {
  it("lists only the fields an edit changed, limits in words, bookkeeping left out", () => {
    const after = {
      ...plan,
      name: "Pro+",
      updatedAt: 2,
      limits: [{ operation: "read", count: 3, periodMs: 60_000 }, plan.limits[1]],
    };
    expect(summarize(plan, after)).toEqual({
      kind: "changed",
      changes: [
        { field: "name", before: "Pro", after: "Pro+" },
        {
          field: "limits",
          before: "read: 50 per minute · write: 10 per second",
          after: "read: 3 per minute · write: 10 per second",
        },
      ],
    });
  });

  // Regression: adding a dry-run limit read as a new enforced one ("read: 2 per second, 3 per
  // second"), and a plan with only a dry-run limit read "none → read: 5 per second".
  it("names dry-run limits as such, apart from the enforced ones", () => {
    const before = { ...plan, limits: [{ operation: "read", count: 3, periodMs: 1_000 }] };
    const after = {
      ...before,
      limits: [...before.limits, { operation: "read", count: 2, periodMs: 1_000, dryRun: true }],
    };
    expect(summarize(before, after).changes).toEqual([
      {
        field: "limits",
        before: "read: 3 per second",
        after: "read: 3 per second; dry run: 2 per second",
      },
    ]);
    const tried = {
      ...plan,
      limits: [{ operation: "read", count: 5, periodMs: 1_000, dryRun: true }],
    };
    expect(summarize({ ...plan, limits: [] }, tried).changes).toEqual([
      { field: "limits", before: "none", after: "read: unlimited; dry run: 5 per second" },
    ]);
    expect(
      formatValue("limits", {
        limits: [
          { count: 9, periodMs: 60_000, dryRun: true },
          { count: 1, periodMs: 1_000 },
        ],
      }),
    ).toBe("1 per second; dry run: 9 per minute");
  });

  it("treats objects with the same values in another key order as unchanged", () => {
    expect(summarize({ a: 1, b: { x: 1, y: 2 } }, { b: { y: 2, x: 1 }, a: 1 }).changes).toEqual([]);
  });

  it("lists a created entity's filled fields as after values", () => {
    const summary = summarize(null, { id: 1, name: "Acme", note: "", status: "active" });
    expect(summary).toEqual({
      kind: "created",
      changes: [
        { field: "name", before: "", after: "Acme" },
        { field: "status", before: "", after: "active" },
      ],
    });
  });

  it("lists a deleted entity's fields as before values", () => {
    expect(summarize({ name: "Acme" }, null)).toEqual({
      kind: "deleted",
      changes: [{ field: "name", before: "Acme", after: "" }],
    });
  });

  it("compares values that are not objects as a whole", () => {
    expect(summarize("a", "b").changes).toEqual([{ field: "value", before: "a", after: "b" }]);
  });
});

describe("formatValue", () => {
  it("writes empty values as a dash", () => {
    expect(formatValue("x", null)).toBe("–");
    expect(formatValue("x", undefined)).toBe("–");
  });

  it("writes an override's limits in words, and no limits as none", () => {
    expect(
      formatValue("override", { limits: [{ count: 5, periodMs: 1_000 }], expiresAt: null }),
    ).toBe("5 per second");
    expect(formatValue("limits", [])).toBe("none");
  });

  it("writes times in local time", () => {
    const at = new Date(2025, 5, 1, 12, 0, 0).getTime();
    expect(formatValue("expiresAt", at)).toBe(formatDateTime(at));
    expect(formatValue("count", at)).toBe(String(at));
  });

  it("cuts long values short", () => {
    const text = formatValue("description", "x".repeat(200));
    expect(text).toHaveLength(MAX_VALUE_CHARS);
    expect(text.endsWith("…")).toBe(true);
  });

  it("writes other values as JSON with sorted keys", () => {
    expect(stableJson({ b: 1, a: [1, { d: 2, c: 1 }] })).toBe('{"a":[1,{"c":1,"d":2}],"b":1}');
    expect(formatValue("x", { b: true, a: 1 })).toBe('{"a":1,"b":true}');
  });
});
