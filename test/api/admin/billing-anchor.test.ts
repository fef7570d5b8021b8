import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as getCustomer, PATCH as patchCustomer } from "@/app/api/admin/customers/[id]/route";
import { POST as createCustomer } from "@/app/api/admin/customers/route";
import { listAudit } from "@/db/queries/audit";
import { listCustomerRows } from "@/db/queries/customers";
import { customerAnswerSchema } from "@/lib/schemas/customer-answer.schema";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

const id = (n: number) => params({ id: String(n) });

function create(body: unknown) {
  return createCustomer(adminRequest("/api/admin/customers", { cookie, body }));
}

function patch(customerId: number, body: unknown) {
  return patchCustomer(adminRequest("/x", { method: "PATCH", cookie, body }), id(customerId));
}

function stored() {
  return {
    customers: listCustomerRows(t.runtime.db),
    audit: listAudit(t.runtime.db, { limit: 1000 }),
  };
}

describe("a customer's billing anchor day", () => {
  it("is the UTC day of the month of its creation when none is given", async () => {
    // 23:30 UTC on the 14th: already the 15th east of UTC, still the 14th for the anchor.
    t.clock.set(Date.UTC(2026, 2, 14, 23, 30));
    cookie = await signIn(); // the session of the test's start has expired by then
    const res = await create({ name: "Acme", planId: t.planId("pro") });
    expect(res.status).toBe(201);
    const { customer } = await res.json();
    expect(customer.billingAnchorDay).toBe(14);
    expect(t.runtime.policy.snapshot.byId.get(customer.id)?.billingAnchorDay).toBe(14);
  });

  it("is the day given at creation, answered by GET through its strict schema", async () => {
    const res = await create({ name: "Acme", planId: t.planId("pro"), billingAnchorDay: 31 });
    const { customer } = await res.json();
    expect(customer.billingAnchorDay).toBe(31);
    const got = await getCustomer(adminRequest("/x", { cookie }), id(customer.id));
    const answer = customerAnswerSchema.parse(await got.json());
    expect(answer.customer.billingAnchorDay).toBe(31);
    expect(listAudit(t.runtime.db, { limit: 1 })[0]?.after).toMatchObject({ billingAnchorDay: 31 });
  });

  it("is edited by PATCH, audited as a customer change with before and after", async () => {
    const before = listCustomerRows(t.runtime.db).find((c) => c.id === t.demoId);
    const res = await patch(t.demoId, { billingAnchorDay: 31 });
    expect(res.status).toBe(200);
    expect((await res.json()).customer.billingAnchorDay).toBe(31);
    const [entry] = listAudit(t.runtime.db, { limit: 1 });
    expect(entry?.action).toBe("customer.update");
    expect(entry?.before).toMatchObject({ billingAnchorDay: before?.billingAnchorDay });
    expect(entry?.after).toMatchObject({ billingAnchorDay: 31 });
    // The policy is rebuilt at once, as for any customer edit.
    expect(t.runtime.policy.snapshot.byId.get(t.demoId)?.billingAnchorDay).toBe(31);
  });

  const badDays: [string, unknown][] = [
    ["zero", 0],
    ["32", 32],
    ["a fraction", 14.5],
    ["a string", "14"],
    ["null", null],
    ["a negative day", -1],
  ];
  it.each(badDays)(
    "at creation, %s is a 400 at billingAnchorDay and changes nothing",
    async (_, day) => {
      const before = stored();
      const res = await create({ name: "A", planId: t.planId("pro"), billingAnchorDay: day });
      expect(res.status).toBe(400);
      const { errors } = await res.json();
      expect(Object.keys(errors)).toEqual(["billingAnchorDay"]);
      expect(errors.billingAnchorDay).toEqual([
        "Billing day must be a day of the month, from 1 to 31",
      ]);
      expect(stored()).toEqual(before);
    },
  );

  it.each(badDays)(
    "in an edit, %s is a 400 at billingAnchorDay and changes nothing",
    async (_, day) => {
      const before = stored();
      const res = await patch(t.demoId, { billingAnchorDay: day });
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).errors)).toEqual(["billingAnchorDay"]);
      expect(stored()).toEqual(before);
    },
  );
});
