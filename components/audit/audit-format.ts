import { describeChanges, type RuleBody } from "@/components/route-rules/route-rules-draft";
import type { AuditEntry } from "@/lib/client/types";
import { countOf } from "@/lib/format";
import type { AuditAction } from "@/lib/vocabulary";
import { type AuditSummary, summarize } from "./audit-diff";

/** ACTION_LABELS name each audited action for people, in the log and its filter. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  "plan.create": "Plan created",
  "plan.update": "Plan changed",
  "plan.delete": "Plan deleted",
  "plan.promote-dry-run": "Dry run limits promoted",
  "customer.create": "Customer created",
  "customer.update": "Customer changed",
  "customer.suspend": "Customer suspended",
  "customer.activate": "Customer reactivated",
  "customer.rotate-key": "Key rotated",
  "customer.reset-buckets": "Buckets reset",
  "customer.delete": "Customer deleted",
  "override.set": "Override set",
  "override.clear": "Override cleared",
  "override.promote-dry-run": "Override dry run promoted",
  "service-token.create": "Service token created",
  "service-token.revoke": "Service token revoked",
  "route-rules.set": "Gateway routes changed",
  "quota.grant": "Quota granted",
  "class.create": "Class created",
  "class.update": "Class changed",
  "class.delete": "Class deleted",
};

/** KindOf is what an audited action changes: the part of its code before the dot. */
type KindOf<A> = A extends `${infer K}.${string}` ? K : never;

/** AUDITED_KINDS name, for people, each kind of thing the log records changes to. */
const AUDITED_KINDS: Record<KindOf<AuditAction>, string> = {
  plan: "plans",
  customer: "customers (key rotations and bucket resets included)",
  override: "overrides",
  "service-token": "service tokens",
  "route-rules": "gateway route rules",
  quota: "quota grants",
  class: "operation classes",
};

/**
 * AUDITED says what the audit log records changes to, in words, from every kind of its actions:
 * "plans, customers (…), overrides, and service tokens". Regression: the page named only plans,
 * customers and overrides, though service-token changes are recorded too.
 */
export const AUDITED = new Intl.ListFormat("en", { type: "conjunction" }).format(
  Object.values(AUDITED_KINDS),
);

/** actionLabel names an action for people; an action this version does not know keeps its code. */
export function actionLabel(action: string): string {
  return ACTION_LABELS[action as AuditAction] ?? action;
}

/** EntryChange is what an entry did, for the log's Change column. */
export type EntryChange = AuditSummary | { kind: "note"; text: string };

/**
 * describeChange says what an entry changed: a reset counts the buckets it cleared (regression:
 * it read "buckets 4 → 0"), a save of the route rules lists its changes in words (as its
 * confirmation did), anything else is the field-by-field summary.
 */
export function describeChange(
  entry: Pick<AuditEntry, "action" | "before" | "after">,
): EntryChange {
  if (entry.action === "customer.reset-buckets") {
    const before = entry.before as { buckets?: unknown } | null;
    const n = typeof before?.buckets === "number" ? before.buckets : 0;
    return {
      kind: "note",
      text:
        n === 0
          ? "No bucket was in use: nothing to clear"
          : `${countOf(n, "bucket")} cleared: every limit starts full`,
    };
  }
  if (entry.action === "route-rules.set") {
    const rules = (value: unknown) => (value as { rules?: RuleBody[] } | null)?.rules ?? [];
    const lines = describeChanges(rules(entry.before), rules(entry.after));
    return { kind: "note", text: lines.length === 0 ? "Saved unchanged" : lines.join("; ") };
  }
  return summarize(entry.before, entry.after);
}

function nameIn(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const name = (value as { name?: unknown }).name;
  return typeof name === "string" ? name : undefined;
}

/** EntityView is how the log names an entry's entity: its name, a link while it exists. */
export interface EntityView {
  name: string;
  href?: string;
  /** gone is true when the entity has been deleted since (its name comes from the entry). */
  gone: boolean;
}

/**
 * entityOf names an entry's customer or plan by its current name (regression: "customer #2"),
 * or once it is deleted by its last known name (the same on each of its entries: regression, a
 * key rotation's entry read "customer #64" among entries naming it), else by the name the entry
 * recorded; and links to it while it exists.
 */
export function entityOf(
  entry: Pick<
    AuditEntry,
    "entityType" | "entityId" | "entityName" | "lastKnownName" | "before" | "after"
  >,
): EntityView {
  // The route rules are one list, with no id or name of its own.
  if (entry.entityType === "route-rules")
    return { name: "Gateway routes", href: "/routes", gone: false };
  const kind = entry.entityType === "plan" ? "plan" : entry.entityType;
  if (entry.entityName !== null && entry.entityId) {
    const href =
      entry.entityType === "plan"
        ? `/plans/${entry.entityId}`
        : entry.entityType === "customer"
          ? `/customers/${entry.entityId}`
          : entry.entityType === "service-token"
            ? "/service-tokens"
            : undefined;
    return { name: entry.entityName, href, gone: false };
  }
  const recorded = entry.lastKnownName ?? nameIn(entry.before) ?? nameIn(entry.after);
  return {
    name: recorded ?? `${kind}${entry.entityId ? ` #${entry.entityId}` : ""}`,
    gone: true,
  };
}
