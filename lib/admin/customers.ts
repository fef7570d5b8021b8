import type { Tx } from "@/db/client";
import {
  deleteCustomerRow,
  getCustomer,
  insertCustomer,
  listCustomerOverrides,
  promoteOverrideDryRun,
  replaceOverride,
  updateCustomerRow,
} from "@/db/queries/customers";
import { getPlan, limitOfColumns } from "@/db/queries/plans";
import { generateApiKey } from "@/lib/policy/api-key";
import type { CustomerCreate, CustomerUpdate, OverrideInput } from "@/lib/schemas/customer.schema";
import type {
  CustomerKeyAnswer,
  CustomerView,
  OverridesPromotedAnswer,
  OverridesView,
} from "@/lib/schemas/customer-answer.schema";
import type { AnyPolicyLimit, Operation } from "@/lib/vocabulary";
import { change } from "./change";
import { missingClass } from "./classes";
import type { AdminContext } from "./context";
import type { Outcome } from "./plans";

const notFound = { ok: false, status: 404, title: "Customer not found" } as const;
const noPlan = {
  ok: false,
  status: 400,
  title: "Invalid request",
  errors: { planId: ["No such plan"] },
} as const;

/** overridesOf groups a customer's stored override rows by operation. */
export function overridesOf(tx: Tx, customerId: number): OverridesView {
  const result: OverridesView = {};
  for (const row of listCustomerOverrides(tx, customerId)) {
    const entry = (result[row.operation] ??= { limits: [], expiresAt: row.expiresAt });
    entry.limits.push(limitOfColumns(row));
  }
  return result;
}

/** createCustomer stores a customer with a new API key; the key is returned once, never stored. */
export function createCustomer(
  rt: AdminContext,
  actor: string,
  input: CustomerCreate,
): Outcome<CustomerKeyAnswer> {
  const key = generateApiKey();
  return change(rt, actor, (tx, now) => {
    if (!getPlan(tx, input.planId)) return noPlan;
    const id = insertCustomer(
      tx,
      { ...input, apiKeyHash: key.hash, apiKeyPrefix: key.prefix },
      now,
    );
    const customer = getCustomer(tx, id) as CustomerView;
    const entry = { action: "customer.create", entityType: "customer", entityId: id } as const;
    return {
      ok: true,
      value: { customer, apiKey: key.key },
      audit: { ...entry, before: null, after: customer },
    };
  });
}

/** updateCustomer changes a customer's name, plan or status (suspend and reactivate). */
export function updateCustomer(
  rt: AdminContext,
  actor: string,
  id: number,
  input: CustomerUpdate,
): Outcome<CustomerView> {
  return change(rt, actor, (tx, now) => {
    const before = getCustomer(tx, id);
    if (!before) return notFound;
    if (input.planId !== undefined && !getPlan(tx, input.planId)) return noPlan;
    updateCustomerRow(tx, id, input, now);
    const after = getCustomer(tx, id) as CustomerView;
    const action =
      input.status && input.status !== before.status
        ? input.status === "suspended"
          ? "customer.suspend"
          : "customer.activate"
        : "customer.update";
    const entry = { action, entityType: "customer", entityId: id } as const;
    return { ok: true, value: after, audit: { ...entry, before, after } };
  });
}

/** rotateKey replaces a customer's API key: the old one stops working at once. */
export function rotateKey(rt: AdminContext, actor: string, id: number): Outcome<CustomerKeyAnswer> {
  const key = generateApiKey();
  return change(rt, actor, (tx, now) => {
    const before = getCustomer(tx, id);
    if (!before) return notFound;
    updateCustomerRow(tx, id, { apiKeyHash: key.hash, apiKeyPrefix: key.prefix }, now);
    const customer = getCustomer(tx, id) as CustomerView;
    const entry = { action: "customer.rotate-key", entityType: "customer", entityId: id } as const;
    return {
      ok: true,
      value: { customer, apiKey: key.key },
      audit: {
        ...entry,
        before: { apiKeyPrefix: before.apiKeyPrefix },
        after: { apiKeyPrefix: customer.apiKeyPrefix },
      },
    };
  });
}

/** deleteCustomer removes a customer, its items, overrides, buckets and traffic. */
export function deleteCustomer(rt: AdminContext, actor: string, id: number): Outcome<null> {
  const result = change(rt, actor, (tx) => {
    const before = getCustomer(tx, id);
    if (!before) return notFound;
    deleteCustomerRow(tx, id);
    const entry = { action: "customer.delete", entityType: "customer", entityId: id } as const;
    return { ok: true, value: null, audit: { ...entry, before, after: null } };
  });
  if (result.ok) {
    resetBuckets(rt, id);
    rt.traffic.forgetCustomer(id);
  }
  return result;
}

/** setOverride replaces a customer's limits for one operation, until an optional expiry. */
export function setOverride(
  rt: AdminContext,
  actor: string,
  id: number,
  operation: Operation,
  input: OverrideInput,
): Outcome<OverridesView> {
  const now = rt.clock.now();
  if (input.expiresAt !== null && input.expiresAt <= now) {
    return {
      ok: false,
      status: 400,
      title: "Invalid request",
      errors: { expiresAt: ["Expiry must be in the future"] },
    };
  }
  return changeOverride(rt, actor, id, operation, input.limits, input.expiresAt, "override.set");
}

/** clearOverride removes a customer's override for one operation: the plan applies again. */
export function clearOverride(rt: AdminContext, actor: string, id: number, operation: Operation) {
  return changeOverride(rt, actor, id, operation, [], null, "override.clear");
}

function changeOverride(
  rt: AdminContext,
  actor: string,
  id: number,
  operation: Operation,
  limits: AnyPolicyLimit[],
  expiresAt: number | null,
  action: "override.set" | "override.clear",
): Outcome<OverridesView> {
  return change(rt, actor, (tx, now) => {
    if (!getCustomer(tx, id)) return notFound;
    const missing = missingClass(tx, operation);
    if (missing) return missing;
    const before = overridesOf(tx, id)[operation] ?? null;
    replaceOverride(tx, id, operation, limits, expiresAt, now);
    const after = overridesOf(tx, id);
    return {
      ok: true,
      value: after,
      audit: {
        action,
        entityType: "customer",
        entityId: id,
        before: { operation, override: before },
        after: { operation, override: after[operation] ?? null },
      },
    };
  });
}

/**
 * promoteOverride makes the dry-run limits of a customer's override for one operation enforced,
 * in one audited change (409 when it has none).
 */
export function promoteOverride(
  rt: AdminContext,
  actor: string,
  id: number,
  operation: Operation,
): Outcome<OverridesPromotedAnswer> {
  return change(rt, actor, (tx) => {
    if (!getCustomer(tx, id)) return notFound;
    const before = overridesOf(tx, id)[operation] ?? null;
    const promoted = promoteOverrideDryRun(tx, id, operation);
    if (promoted === 0) {
      return {
        ok: false,
        status: 409,
        title: `The customer's ${operation} override has no dry-run limits to promote`,
      };
    }
    const overrides = overridesOf(tx, id);
    return {
      ok: true,
      value: { overrides, promoted },
      audit: {
        action: "override.promote-dry-run",
        entityType: "customer",
        entityId: id,
        before: { operation, override: before },
        after: { operation, override: overrides[operation] ?? null },
      },
    };
  });
}

/** resetBuckets forgets a customer's buckets: those of every class start full again. */
export function resetBuckets(rt: AdminContext, id: number): Promise<number> {
  return rt.decisions.forget(id, rt.policy.snapshot.classes);
}
