// How scheduled backups are named: by the UTC instant they were taken, to the second, so that
// names sort in time order and a listing of BACKUP_DIR reads as a history.

const NAME_PATTERN = /^ratekeeper-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.db$/;

/** utcStamp writes an instant (ms since the epoch) as a compact UTC time: "20260301T060000Z". */
export function utcStamp(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** backupFileName names the scheduled backup taken at `ms`: "ratekeeper-20260301T060000Z.db". */
export function backupFileName(ms: number): string {
  return `ratekeeper-${utcStamp(ms)}.db`;
}

/**
 * backupTimeOf reads the instant (ms since the epoch, whole seconds) back from a scheduled
 * backup's file name, or undefined for any other name.
 */
export function backupTimeOf(name: string): number | undefined {
  const match = NAME_PATTERN.exec(name);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as number[];
  const ms = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
  return backupFileName(ms) === name ? ms : undefined;
}
