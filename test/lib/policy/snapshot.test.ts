import { describe, expect, it } from "vitest";
import { grantedExtra, grantKey } from "@/lib/policy/quota-grants";
import { buildSnapshot, changedCustomers, type PolicyRows } from "@/lib/policy/snapshot";

const PARIS_MONTH = Date.UTC(2024, 11, 31, 23);

function rows(customer: Partial<PolicyRows["customers"][number]> = {}): PolicyRows {
  return {
    plans: [{ id: 1, slug: "pro", name: "Pro", limits: [] }],
    customers: [
      { id: 7, name: "Acme", status: "active", planId: 1, apiKeyHash: "h7", billingAnchorDay: 14 },
      {
        id: 8,
        name: "Globex",
        status: "active",
        planId: 1,
        apiKeyHash: "h8",
        billingAnchorDay: 1,
        ...customer,
      },
    ],
    overrides: [],
    serviceTokens: [],
  };
}

describe("a customer's billing anchor day and grants in the snapshot", () => {
  it("carries the day and the grants by quota period; a period without one adds 0", () => {
    const key = grantKey("exports", "month", "Europe/Paris", PARIS_MONTH);
    expect(key).toBe(`exports|month|Europe/Paris|${PARIS_MONTH}`);
    const snapshot = buildSnapshot(rows({ billingAnchorDay: 31, grants: { [key]: 250 } }), 0);
    const globex = snapshot.byId.get(8);
    expect(globex?.billingAnchorDay).toBe(31);
    expect(globex && grantedExtra(globex, "exports", "month", "Europe/Paris", PARIS_MONTH)).toBe(
      250,
    );
    expect(globex && grantedExtra(globex, "exports", "month", "UTC", PARIS_MONTH)).toBe(0);
    const acme = snapshot.byId.get(7);
    expect(acme?.billingAnchorDay).toBe(14);
    expect(acme?.grants.size).toBe(0);
  });

  it.each([
    ["another billing day", { billingAnchorDay: 2 }],
    ["a new grant", { grants: { [`read|day|UTC|${PARIS_MONTH}`]: 1 } }],
  ])("counts %s as a change of the customer's policy", (_, change) => {
    const before = buildSnapshot(rows(), 0);
    expect(changedCustomers(before, buildSnapshot(rows(), 1))).toEqual([]);
    expect(changedCustomers(before, buildSnapshot(rows(change), 1))).toEqual([8]);
  });

  it("counts a grant's new total as a change, and the same grants in another order as none", () => {
    const a = `read|day|UTC|${PARIS_MONTH}`;
    const b = `write|week|UTC|${PARIS_MONTH}`;
    const before = buildSnapshot(rows({ grants: { [a]: 1, [b]: 2 } }), 0);
    expect(
      changedCustomers(before, buildSnapshot(rows({ grants: { [b]: 2, [a]: 1 } }), 1)),
    ).toEqual([]);
    expect(
      changedCustomers(before, buildSnapshot(rows({ grants: { [a]: 1, [b]: 3 } }), 1)),
    ).toEqual([8]);
  });
});
