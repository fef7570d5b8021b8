import type { DatabaseCounts, MigrationLevel } from "@/db/maintenance";

/** formatBytes writes a size in bytes for people: "812 B", "4.0 KiB", "56.2 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** formatCount writes a count for people, the same in every message: "10,000". */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** formatDuration writes how long something took, in ms: "12 ms" under a second, "3.4 s" from one. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * isRoutineFailure tells a failure the operator can act on from its message alone (an Error
 * this code throws on purpose, or a system or SQLite error with its code: a full disk, a
 * missing directory) from an unforeseen one (a bug), whose stack is worth logging. An error
 * may say which it is with a boolean `routine` (a backup worker's answer does).
 */
export function isRoutineFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { routine, code } = error as { routine?: unknown; code?: unknown };
  if (typeof routine === "boolean") return routine;
  return Object.getPrototypeOf(error) === Error.prototype || typeof code === "string";
}

/** failureText is an error's message, with its cause's when that adds to it. */
export function failureText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause === undefined || error.message.includes(cause)
    ? error.message
    : `${error.message} (${cause})`;
}

/** describeLevel says how far a schema has come: "7 of 7 migrations (0006_dry_run_since_backfill)". */
export function describeLevel(level: MigrationLevel): string {
  const of = `${level.applied} of ${level.known} migrations`;
  if (level.foreign !== null) return `${of} recorded, not this version's: ${level.foreign}`;
  if (level.newer) return `${of} known here, and newer ones (written by a newer Ratekeeper)`;
  return level.latest === null ? `${of} (none applied)` : `${of} (${level.latest})`;
}

/** describeCounts lists what a database holds: "3 plans, 120 customers, 2 service tokens, …". */
export function describeCounts(counts: DatabaseCounts): string {
  const n = (value: number, one: string, many: string) =>
    `${formatCount(value)} ${value === 1 ? one : many}`;
  const parts = [n(counts.plans, "plan", "plans"), n(counts.customers, "customer", "customers")];
  if (counts.serviceTokens !== null)
    parts.push(n(counts.serviceTokens, "service token", "service tokens"));
  parts.push(
    `${n(counts.auditEntries, "audit entry", "audit entries")} (last id ${counts.lastAuditId})`,
  );
  if (counts.usageRows !== null) parts.push(n(counts.usageRows, "usage row", "usage rows"));
  return parts.join(", ");
}
