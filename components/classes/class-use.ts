import type { ClassView } from "@/lib/client/class-types";
import { countOf } from "@/lib/format";

/**
 * classUse says in words who uses a class: "2 plans, 1 customer override", or "Unused".
 */
export function classUse(c: Pick<ClassView, "plans" | "overrides">): string {
  const parts = [
    c.plans > 0 ? countOf(c.plans, "plan") : "",
    c.overrides > 0 ? countOf(c.overrides, "customer override") : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "Unused";
}

/**
 * whyNotDeletable says why a class cannot be deleted, or null when it can: read and write always
 * exist; a class in use keeps its limits until they are removed.
 */
export function whyNotDeletable(
  c: Pick<ClassView, "builtIn" | "plans" | "overrides">,
): string | null {
  if (c.builtIn) return "A default class: requests that name none fall into it by method.";
  if (c.plans > 0 || c.overrides > 0) {
    return `In use by ${classUse(c)}: remove those limits first.`;
  }
  return null;
}
