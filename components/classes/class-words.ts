import type { Operation } from "@/lib/vocabulary";

/** DEFAULT_LABELS name the default classes for people, as the dashboard always has. */
const DEFAULT_LABELS: Readonly<Record<string, { one: string; many: string }>> = {
  read: { one: "Read", many: "Reads" },
  write: { one: "Write", many: "Writes" },
};

/** classLabel names a class in a control: "Read", "Write", or the class's own name ("exports"). */
export function classLabel(name: Operation): string {
  return Object.hasOwn(DEFAULT_LABELS, name) ? (DEFAULT_LABELS[name]?.one ?? name) : name;
}

/** classTitle titles a class's section: "Reads", "Writes", or the class's own name ("exports"). */
export function classTitle(name: Operation): string {
  return Object.hasOwn(DEFAULT_LABELS, name) ? (DEFAULT_LABELS[name]?.many ?? name) : name;
}

/**
 * orderedClasses lists class names as the dashboard shows them: read and write first, then the
 * others by name, each once.
 */
export function orderedClasses(names: Iterable<Operation>): Operation[] {
  const rank = (name: string) => (name === "read" ? 0 : name === "write" ? 1 : 2);
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
