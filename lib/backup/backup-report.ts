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

/** describeLevel says how far a schema has come: "7 of 7 migrations (0006_dry_run_since_backfill)". */
export function describeLevel(level: MigrationLevel): string {
  const of = `${level.applied} of ${level.known} migrations`;
  if (level.newer) return `${of} known here, and newer ones (written by a newer Ratekeeper)`;
  return level.latest === null ? `${of} (none applied)` : `${of} (${level.latest})`;
}

/** describeCounts lists what a database holds: "3 plans, 120 customers, 2 service tokens, …". */
export function describeCounts(counts: DatabaseCounts): string {
  const n = (value: number, one: string, many: string) =>
    `${value.toLocaleString("en-US")} ${value === 1 ? one : many}`;
  const parts = [n(counts.plans, "plan", "plans"), n(counts.customers, "customer", "customers")];
  if (counts.serviceTokens !== null)
    parts.push(n(counts.serviceTokens, "service token", "service tokens"));
  parts.push(
    `${n(counts.auditEntries, "audit entry", "audit entries")} (last id ${counts.lastAuditId})`,
  );
  if (counts.usageRows !== null) parts.push(n(counts.usageRows, "usage row", "usage rows"));
  return parts.join(", ");
}
