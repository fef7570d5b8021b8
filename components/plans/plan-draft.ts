import {
  draftOfLimit,
  isQuotaDraft,
  limitDraft,
  numberOf,
  type OperationLimitDraft,
  periodMsOf,
} from "@/components/ui/limit-draft";
import { type AnyLimit, describeAnyLimits, isQuota } from "@/components/ui/limit-words";
import { type Validation, validateWith } from "@/components/ui/validation";
import type { PlanWithLimits } from "@/lib/client/types";
import { limitRowSchema } from "@/lib/schemas/limit.schema";
import {
  type PlanCreate,
  type PlanUpdate,
  planCreateSchema,
  planUpdateSchema,
} from "@/lib/schemas/plan.schema";
import type { AnyLimitRow, Operation, QuotaPeriod } from "@/lib/vocabulary";

/** PlanDraft is the plan editor's state, before validation. */
export interface PlanDraft {
  name: string;
  slug: string;
  description: string;
  limits: OperationLimitDraft[];
}

/** emptyDraft is a new plan: no name yet, one read and one write limit to start from. */
export function emptyDraft(): PlanDraft {
  return {
    name: "",
    slug: "",
    description: "",
    limits: [limitDraft("read", 100, 1, "m"), limitDraft("write", 20, 1, "m")],
  };
}

/** draftFromPlan turns a stored plan into editor state, each period in its largest whole unit. */
export function draftFromPlan(plan: PlanWithLimits): PlanDraft {
  return {
    name: plan.name,
    slug: plan.slug,
    description: plan.description,
    limits: plan.limits.map((l) => {
      const { count, amount, unit, period, timeZone } = draftOfLimit(l);
      const quota = period === undefined ? {} : { period, timeZone };
      // The flag rides along, so saving other edits keeps a dry-run limit dry-run.
      return { ...limitDraft(l.operation, count, amount, unit), ...quota, dryRun: l.dryRun };
    }),
  };
}

/** slugify derives a slug from a name: "Pro Plus!" -> "pro-plus". */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

/** PlanBodyLimit is one limit of the body the editor sends: a bucket's or a quota's row. */
export type PlanBodyLimit =
  | {
      operation: Operation;
      count: number | undefined;
      periodMs: number | undefined;
      dryRun?: boolean;
    }
  | {
      operation: Operation;
      count: number | undefined;
      period: QuotaPeriod;
      timeZone: string;
      dryRun?: boolean;
    };

/** PlanBody is the body the editor sends, before the schema checks it. */
export interface PlanBody {
  slug: string;
  name: string;
  description: string;
  limits: PlanBodyLimit[];
}

/**
 * toBody converts a draft into the API's shape: counts as numbers, a bucket's period as amount ×
 * unit in ms, a quota's as its calendar period and time zone.
 */
export function toBody(draft: PlanDraft): PlanBody {
  return {
    slug: draft.slug,
    name: draft.name,
    description: draft.description,
    limits: draft.limits.map((l): PlanBodyLimit => {
      const dryRun = l.dryRun === undefined ? {} : { dryRun: l.dryRun };
      const count = numberOf(l.count);
      if (isQuotaDraft(l)) {
        const period = l.period ?? "month";
        return { operation: l.operation, count, period, timeZone: l.timeZone ?? "UTC", ...dryRun };
      }
      return {
        operation: l.operation,
        count,
        periodMs: periodMsOf(numberOf(l.amount), l.unit),
        ...dryRun,
      };
    }),
  };
}

/** validateCreate checks a new plan with the API's schema (quotas allowed) and error paths. */
export function validateCreate(draft: PlanDraft): Validation<PlanCreate> {
  return validateWith(planCreateSchema, toBody(draft));
}

/** limitKey names a limit by what it counts, a quota's missing zone read as UTC. */
function limitKey(r: AnyLimitRow | PlanWithLimits["limits"][number]): string {
  const dryRun = r.dryRun ?? false;
  return JSON.stringify(
    isQuota(r)
      ? [r.operation, r.count, r.period, r.timeZone ?? "UTC", dryRun]
      : [r.operation, r.count, r.periodMs, dryRun],
  );
}

function sameLimits(
  a: readonly AnyLimitRow[],
  b: readonly PlanWithLimits["limits"][number][],
): boolean {
  const key = (rows: readonly (AnyLimitRow | PlanWithLimits["limits"][number])[]) =>
    JSON.stringify(rows.map(limitKey).sort());
  return key(a) === key(b);
}

/**
 * validateUpdate checks the whole draft with the server's update schema, then keeps only the
 * fields that differ from the saved plan (limits go whole: they replace all). An edit that
 * changes nothing is an empty object.
 */
export function validateUpdate(draft: PlanDraft, saved: PlanWithLimits): Validation<PlanUpdate> {
  const checked = validateWith(planUpdateSchema, toBody(draft));
  if (!checked.ok) return checked;
  const { slug, name, description, limits } = checked.data;
  const changes: PlanUpdate = {};
  if (slug !== undefined && slug !== saved.slug) changes.slug = slug;
  if (name !== undefined && name !== saved.name) changes.name = name;
  if (description !== undefined && description !== saved.description)
    changes.description = description;
  if (limits !== undefined && !sameLimits(limits, saved.limits)) changes.limits = limits;
  return { ok: true, data: changes };
}

/** sameDraft tells whether two drafts hold the same values (row keys aside). */
export function sameDraft(a: PlanDraft, b: PlanDraft): boolean {
  // An unticked dry-run box is the same as none (a new row has no flag until it is ticked).
  const strip = (d: PlanDraft) =>
    JSON.stringify({
      ...d,
      limits: d.limits.map(({ key: _key, dryRun, ...rest }) => ({
        ...rest,
        dryRun: dryRun ?? false,
      })),
    });
  return strip(a) === strip(b);
}

/**
 * limitsInWords is the editor's "in words" line for one operation: "unlimited" when it has no
 * limit, the limits in words when every row of it is valid, and otherwise which row to fix.
 * Regression: an invalid row was left out, so a plan with only invalid read limits read
 * "Reads: unlimited" beside the error.
 */
export function limitsInWords(draft: PlanDraft, operation: Operation): string {
  const rows = toBody(draft).limits.map((row, index) => ({ row, index }));
  const mine = rows.filter(({ row }) => row.operation === operation);
  const invalid = mine.find(({ row }) => !limitRowSchema.safeParse(row).success);
  if (invalid) return `not valid yet: fix limit ${invalid.index + 1}`;
  return describeAnyLimits(mine.map(({ row }) => row as AnyLimit));
}
