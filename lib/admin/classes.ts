import type { Tx } from "@/db/client";
import {
  type ClassRow,
  classUsers,
  deleteClass as deleteClassRow,
  getClass,
  insertClass,
  listClassNames,
  listClassUses,
  updateClassDescription,
} from "@/db/queries/operation-classes";
import { listRouteRules } from "@/db/queries/route-rules";
import { countOf } from "@/lib/format";
import type { ClassCreate, ClassUpdate } from "@/lib/schemas/operation-class.schema";
import { unknownClassMessage } from "@/lib/schemas/operation-class.schema";
import type { ClassView } from "@/lib/schemas/operation-class-answer.schema";
import type { FieldErrors } from "@/lib/schemas/problem.schema";
import { isDefaultClass, type Operation } from "@/lib/vocabulary";
import { change } from "./change";
import type { AdminContext } from "./context";
import type { Outcome } from "./plans";

const classNotFound = { ok: false, status: 404, title: "Class not found" } as const;

/** MAX_NAMED is how many plans (and customers) a refusal names before it counts the rest. */
const MAX_NAMED = 5;

/** namesIn lists names for a sentence: `"Pro", "Team" and 3 more`. */
function namesIn(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMED).map((n) => JSON.stringify(n));
  if (names.length > MAX_NAMED) shown.push(`${names.length - MAX_NAMED} more`);
  return new Intl.ListFormat("en", { type: "conjunction" }).format(shown);
}

function viewOf(row: ClassRow, plans: number, overrides: number): ClassView {
  return { ...row, builtIn: isDefaultClass(row.name), plans, overrides };
}

/** classesOf lists every operation class, read and write first, with the plans and overrides using it. */
export function classesOf(rt: AdminContext): ClassView[] {
  return listClassUses(rt.db).map((c) => viewOf(c, c.plans, c.overrides));
}

/** classViewOf is one class with its uses, read in `tx`. */
function classViewOf(tx: Tx, name: string): ClassView | undefined {
  const row = getClass(tx, name);
  if (!row) return undefined;
  const users = classUsers(tx, name);
  return viewOf(row, users.plans.length, users.customers.length);
}

/**
 * createClass adds an operation class (409 when the name is taken), audits it and rebuilds the
 * policy: decisions may name it from the next request on (unlimited until limits name it).
 */
export function createClass(
  rt: AdminContext,
  actor: string,
  input: ClassCreate,
): Outcome<ClassView> {
  return change(rt, actor, (tx, now) => {
    if (getClass(tx, input.name)) {
      return {
        ok: false,
        status: 409,
        title: "Class already exists",
        errors: { name: [`A class named ${JSON.stringify(input.name)} already exists`] },
      };
    }
    const row = insertClass(tx, input, now);
    const entry = { action: "class.create", entityType: "class", entityId: row.name } as const;
    return { ok: true, value: viewOf(row, 0, 0), audit: { ...entry, before: null, after: row } };
  });
}

/** updateClass edits a class's description, audited. */
export function updateClass(
  rt: AdminContext,
  actor: string,
  name: string,
  input: ClassUpdate,
): Outcome<ClassView> {
  return change(rt, actor, (tx) => {
    const before = getClass(tx, name);
    if (!before) return classNotFound;
    const after = updateClassDescription(tx, name, input.description) as ClassRow;
    const entry = { action: "class.update", entityType: "class", entityId: name } as const;
    return {
      ok: true,
      value: classViewOf(tx, name) as ClassView,
      audit: { ...entry, before, after },
    };
  });
}

/**
 * deleteClass removes a class that no plan or override uses, audited; read and write are never
 * removed, and a class in use is refused with 409 naming the plans and customers that use it.
 * Usage history keeps the name.
 */
export function deleteClass(rt: AdminContext, actor: string, name: string): Outcome<null> {
  return change(rt, actor, (tx) => {
    const before = getClass(tx, name);
    if (!before) return classNotFound;
    if (isDefaultClass(name)) {
      return {
        ok: false,
        status: 409,
        title: `The ${name} class is a default one (the method's class when a request names none): it cannot be deleted`,
      };
    }
    const users = classUsers(tx, name);
    const routed = listRouteRules(tx).filter((rule) => rule.operation === name).length;
    if (users.plans.length > 0 || users.customers.length > 0 || routed > 0) {
      const uses = [
        routed > 0 ? countOf(routed, "gateway route rule") : "",
        users.plans.length > 0
          ? `the limits of plan${users.plans.length > 1 ? "s" : ""} ${namesIn(users.plans.map((p) => p.name))}`
          : "",
        users.customers.length > 0
          ? `the overrides of customer${users.customers.length > 1 ? "s" : ""} ${namesIn(users.customers.map((c) => c.name))}`
          : "",
      ].filter(Boolean);
      return {
        ok: false,
        status: 409,
        title: `Class ${JSON.stringify(name)} is used by ${uses.join(" and ")}: remove those limits first`,
      };
    }
    deleteClassRow(tx, name);
    const entry = { action: "class.delete", entityType: "class", entityId: name } as const;
    return { ok: true, value: null, audit: { ...entry, before, after: null } };
  });
}

/**
 * unknownLimitClasses is the 400 for limits that name classes the database does not have (at
 * `<prefix>.<index>.operation`, each named), or null when all exist.
 */
export function unknownLimitClasses(
  tx: Tx,
  limits: readonly { operation?: Operation }[],
  prefix: string,
): Extract<Outcome<never>, { ok: false }> | null {
  const known = listClassNames(tx);
  const have = new Set(known);
  const errors: FieldErrors = {};
  limits.forEach((limit, index) => {
    if (limit.operation !== undefined && !have.has(limit.operation)) {
      errors[`${prefix}.${index}.operation`] = [unknownClassMessage(limit.operation, known)];
    }
  });
  return Object.keys(errors).length > 0
    ? { ok: false, status: 400, title: "Invalid request", errors }
    : null;
}

/** unknownClassField is the 400 for a class the database does not have, at `field`, or null. */
export function unknownClassField(
  tx: Tx,
  name: string,
  field: string,
): Extract<Outcome<never>, { ok: false }> | null {
  if (getClass(tx, name)) return null;
  const errors: FieldErrors = { [field]: [unknownClassMessage(name, listClassNames(tx))] };
  return { ok: false, status: 400, title: "Invalid request", errors };
}

/** missingClass is the 404 of a path that names a class the database does not have, or null. */
export function missingClass(tx: Tx, name: string): Extract<Outcome<never>, { ok: false }> | null {
  return getClass(tx, name)
    ? null
    : { ok: false, status: 404, title: `Unknown class ${JSON.stringify(name)}` };
}
