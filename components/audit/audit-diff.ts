import { describePolicyLimits } from "@/lib/format";
import { formatDateTime } from "@/lib/time-format";

/** FieldChange is one field of an audited entity, written for people, before and after. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

/** AuditSummary is what an audit entry did, and the fields it touched. */
export interface AuditSummary {
  kind: "created" | "deleted" | "changed";
  changes: FieldChange[];
}

/** NOISE are bookkeeping fields that every change touches; the summary leaves them out. */
const NOISE = new Set(["id", "createdAt", "updatedAt"]);

/** MAX_VALUE_CHARS is where a written value is cut short (the JSON view has the rest). */
export const MAX_VALUE_CHARS = 80;

type Row = Record<string, unknown>;

function isRow(value: unknown): value is Row {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** AuditedLimit is a limit as an audit entry records it: a plan's carry their operation. */
type AuditedLimit = { operation?: string; count: number; periodMs: number; dryRun?: boolean };

function isLimit(value: unknown): value is AuditedLimit {
  return isRow(value) && typeof value.count === "number" && typeof value.periodMs === "number";
}

/** stableJson writes a value with object keys sorted, so equal values compare equal. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    isRow(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

function shorten(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/**
 * describeLimitList writes audited limits in words, per operation, with the shared wording that
 * names dry-run limits as such ("read: 3 per second; dry run: 2 per second"). Regression: the
 * dry-run flag was dropped, so a tried limit read as a new enforced one.
 */
function describeLimitList(limits: AuditedLimit[]) {
  if (limits.length === 0) return "none";
  const operations = [...new Set(limits.map((l) => l.operation ?? ""))];
  return operations
    .map((op) => {
      const words = describePolicyLimits(
        limits
          .filter((l) => (l.operation ?? "") === op)
          .map((l) => ({ count: l.count, periodMs: l.periodMs, dryRun: l.dryRun === true })),
      );
      return op ? `${op}: ${words}` : words;
    })
    .join(" · ");
}

/**
 * formatValue writes an audited value briefly: limits in words ("read: 10 per second"), times
 * (fields ending in "At", ms since the epoch) in local time with the zone, anything else as
 * short JSON.
 */
export function formatValue(field: string, value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value) && value.every(isLimit)) return describeLimitList(value);
  if (isRow(value) && Array.isArray(value.limits) && value.limits.every(isLimit)) {
    const until =
      typeof value.expiresAt === "number" ? ` until ${formatDateTime(value.expiresAt)}` : "";
    return shorten(`${describeLimitList(value.limits)}${until}`);
  }
  if (typeof value === "number" && field.endsWith("At")) return formatDateTime(value);
  if (typeof value === "string") return shorten(value);
  return shorten(stableJson(value));
}

function fieldsOf(row: Row): string[] {
  return Object.keys(row).filter((k) => !NOISE.has(k));
}

/** filledFieldsOf are the fields worth listing for a created or deleted entity: not blank. */
function filledFieldsOf(row: Row): string[] {
  return fieldsOf(row).filter((k) => row[k] !== "" && row[k] !== null && row[k] !== undefined);
}

/**
 * summarize compares an entry's before and after: a creation lists the new entity's filled
 * fields, a deletion the old one's, and an edit only the fields whose values differ.
 */
export function summarize(before: unknown, after: unknown): AuditSummary {
  if ((before === null || before === undefined) && isRow(after)) {
    const changes = filledFieldsOf(after).map((field) => ({
      field,
      before: "",
      after: formatValue(field, after[field]),
    }));
    return { kind: "created", changes };
  }
  if (isRow(before) && (after === null || after === undefined)) {
    const changes = filledFieldsOf(before).map((field) => ({
      field,
      before: formatValue(field, before[field]),
      after: "",
    }));
    return { kind: "deleted", changes };
  }
  if (isRow(before) && isRow(after)) {
    const fields = [...new Set([...fieldsOf(before), ...fieldsOf(after)])];
    const changes = fields
      .filter((field) => stableJson(before[field]) !== stableJson(after[field]))
      .map((field) => ({
        field,
        before: formatValue(field, before[field]),
        after: formatValue(field, after[field]),
      }));
    return { kind: "changed", changes };
  }
  if (stableJson(before) === stableJson(after)) return { kind: "changed", changes: [] };
  return {
    kind: "changed",
    changes: [{ field: "value", before: formatValue("", before), after: formatValue("", after) }],
  };
}
