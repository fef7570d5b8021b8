import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  GET as listGrants,
  POST as postGrant,
} from "@/app/api/admin/customers/[id]/quota-grants/route";
import { DELETE as remove } from "@/app/api/admin/customers/[id]/route";
import { listAudit } from "@/db/queries/audit";
import { grantsFor } from "@/db/queries/quota-grants";
import { GRANT_LOOKBACK_MS, grantedExtra } from "@/lib/policy/quota-grants";
import { buildSnapshot } from "@/lib/policy/snapshot";
import { decodePolicyRows, encodePolicyRows } from "@/lib/policy/snapshot-codec";
import { readPolicyState } from "@/lib/policy/sqlite-policy";
import { MAX_GRANT_EXTRA } from "@/lib/schemas/quota-grant.schema";
import {
  quotaGrantAnswerSchema,
  quotaGrantsAnswerSchema,
} from "@/lib/schemas/quota-grant-answer.schema";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

const id = (n: number | string) => params({ id: String(n) });
/** MONTH_START is a month's start in Paris: 2025-01-01T00:00+01:00, in ms. */
const MONTH_START = Date.UTC(2024, 11, 31, 23);
const valid = {
  operation: "read",
  period: "month",
  timeZone: "Europe/Paris",
  periodStartMs: MONTH_START,
  extra: 500,
};

function grant(customerId: number | string, body: unknown) {
  return postGrant(adminRequest("/x", { cookie, body }), id(customerId));
}

function stored() {
  return {
    grants: t.runtime.sqlite.prepare("SELECT * FROM quota_grants").all(),
    audit: listAudit(t.runtime.db, { limit: 1000 }),
  };
}

describe("quota grants", () => {
  it("grants extra quota for one period: 201, stored, audited, in the policy at once", async () => {
    const res = await grant(t.demoId, { ...valid, note: "Launch week" });
    expect(res.status).toBe(201);
    const { grant: made } = quotaGrantAnswerSchema.parse(await res.json());
    expect(made).toEqual({
      id: made.id,
      customerId: t.demoId,
      ...valid,
      note: "Launch week",
      createdAt: START_MS,
      createdBy: "admin",
    });
    expect(grantsFor(t.runtime.db, t.demoId)).toEqual([made]);
    const [entry] = listAudit(t.runtime.db, { limit: 1 });
    expect(entry).toMatchObject({
      action: "quota.grant",
      entityType: "customer",
      entityId: String(t.demoId),
      before: null,
      after: made,
    });
    const customer = t.runtime.policy.snapshot.byId.get(t.demoId);
    expect(customer && grantedExtra(customer, "read", "month", "Europe/Paris", MONTH_START)).toBe(
      500,
    );
  });

  it("lists a customer's grants newest first; grants of one period add up in the policy", async () => {
    await grant(t.demoId, valid);
    await grant(t.demoId, { ...valid, extra: 20, note: "more" });
    await grant(t.demoId, {
      ...valid,
      period: "day",
      timeZone: "UTC",
      periodStartMs: START_MS,
      extra: 3,
    });
    const res = await listGrants(adminRequest("/x", { cookie }), id(t.demoId));
    expect(res.status).toBe(200);
    const { grants } = quotaGrantsAnswerSchema.parse(await res.json());
    expect(grants.map((g) => g.extra)).toEqual([3, 20, 500]);
    const customer = t.runtime.policy.snapshot.byId.get(t.demoId);
    expect(customer?.grants).toEqual(
      new Map([
        [`read|month|Europe/Paris|${MONTH_START}`, 520],
        [`read|day|UTC|${START_MS}`, 3],
      ]),
    );
  });

  it("names a time zone with its case corrected, and a class that is not read or write", async () => {
    const res = await grant(t.demoId, { ...valid, operation: "exports", timeZone: "europe/paris" });
    expect(res.status).toBe(201);
    expect((await res.json()).grant).toMatchObject({
      operation: "exports",
      timeZone: "Europe/Paris",
    });
  });

  it("answers 404 for an unknown customer, listing or granting, and stores nothing", async () => {
    const before = stored();
    for (const unknown of [999_999, "abc", "0"]) {
      expect((await grant(unknown, valid)).status).toBe(404);
      expect((await listGrants(adminRequest("/x", { cookie }), id(unknown))).status).toBe(404);
    }
    expect(stored()).toEqual(before);
  });

  it("goes with its customer", async () => {
    await grant(t.demoId, valid);
    await remove(adminRequest("/x", { method: "DELETE", cookie }), id(t.demoId));
    expect(stored().grants).toEqual([]);
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ["an operation that is not a class name", { operation: "Read" }, "operation"],
    ["an operation too long", { operation: `a${"b".repeat(32)}` }, "operation"],
    ["no operation", { operation: undefined }, "operation"],
    ["a year period", { period: "year" }, "period"],
    ["an unknown time zone", { timeZone: "Mars/Olympus" }, "timeZone"],
    ["an offset for a time zone", { timeZone: "+01:00" }, "timeZone"],
    ["a number for a time zone", { timeZone: 1 }, "timeZone"],
    ["a negative period start", { periodStartMs: -1 }, "periodStartMs"],
    ["a fractional period start", { periodStartMs: 1.5 }, "periodStartMs"],
    ["a period start in words", { periodStartMs: "2025-01-01" }, "periodStartMs"],
    ["a period start past the year 9999", { periodStartMs: 1e300 }, "periodStartMs"],
    ["no extra", { extra: 0 }, "extra"],
    ["a negative extra", { extra: -5 }, "extra"],
    ["a fractional extra", { extra: 2.5 }, "extra"],
    ["an extra past the ceiling", { extra: MAX_GRANT_EXTRA + 1 }, "extra"],
    ["a note with a line break", { note: "a\nb" }, "note"],
    ["a note too long", { note: "x".repeat(201) }, "note"],
    ["a field it does not know", { count: 5 }, "count"],
  ];
  it.each(bad)("with %s is a 400 at the field and stores nothing", async (_, change, field) => {
    const before = stored();
    const res = await grant(t.demoId, { ...valid, ...change });
    expect(res.status).toBe(400);
    expect(Object.keys((await res.json()).errors)).toEqual([field]);
    expect(stored()).toEqual(before);
  });

  it("takes the ceiling itself", async () => {
    expect((await grant(t.demoId, { ...valid, extra: MAX_GRANT_EXTRA })).status).toBe(201);
  });
});

describe("grants in the policy snapshot", () => {
  it("carries only the periods that may still be current, through Redis's form too", async () => {
    const now = t.clock.now();
    await grant(t.demoId, { ...valid, periodStartMs: now - GRANT_LOOKBACK_MS - 1, extra: 1 });
    await grant(t.demoId, { ...valid, periodStartMs: now - GRANT_LOOKBACK_MS, extra: 2 });
    await grant(t.demoId, { ...valid, periodStartMs: now + 86_400_000, extra: 4 });
    const keys = [
      `read|month|Europe/Paris|${now - GRANT_LOOKBACK_MS}`,
      `read|month|Europe/Paris|${now + 86_400_000}`,
    ];
    const read = readPolicyState(t.runtime.db, now);
    const row = read.rows.customers.find((c) => c.id === t.demoId);
    expect(row?.grants).toEqual({ [keys[0] as string]: 2, [keys[1] as string]: 4 });
    const decoded = decodePolicyRows(encodePolicyRows(read.rows));
    if (!decoded.ok) throw new Error(decoded.reason);
    const edge = buildSnapshot(decoded.rows, now).byId.get(t.demoId);
    expect(edge?.grants).toEqual(
      new Map([
        [keys[0], 2],
        [keys[1], 4],
      ]),
    );
    expect(edge?.billingAnchorDay).toBe(row?.billingAnchorDay);
    // A millisecond later the oldest of them has aged out of what is read.
    const later = readPolicyState(t.runtime.db, now + 1).rows.customers.find(
      (c) => c.id === t.demoId,
    );
    expect(later?.grants).toEqual({ [keys[1] as string]: 4 });
  });
});
