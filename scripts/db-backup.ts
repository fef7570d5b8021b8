// npm run db:backup -- FILE [--force]: a consistent copy of DATABASE_PATH, safe while the server
// runs and writes (lib/backup/backup-file.ts), checked with PRAGMA integrity_check. See
// docs/backups.md. Exit 0 when written, 1 when it failed, 2 for bad arguments.
import { writeBackup } from "../lib/backup/backup-file";
import {
  describeCounts,
  describeLevel,
  formatBytes,
  formatDuration,
} from "../lib/backup/backup-report";
import { durationClock } from "../lib/clock";
import { getEnv } from "../lib/env";
import { BACKUP_USAGE, parseDbArgs, resolveFileArg } from "./db-args";

const command = parseDbArgs(process.argv.slice(2), ["--force"]);
if (command.action === "help") {
  console.log(BACKUP_USAGE);
  process.exit(0);
}
if (command.action === "refuse") {
  console.error(`db:backup: ${command.message}\n\n${BACKUP_USAGE}`);
  process.exit(2);
}
let database: string;
try {
  database = getEnv().DATABASE_PATH;
} catch (error) {
  console.error(`db:backup: ${(error as Error).message}`);
  process.exit(2);
}
const started = durationClock.now();
try {
  const file = resolveFileArg(command.file, process.env.INIT_CWD, process.cwd());
  const report = writeBackup(database, file, { overwrite: command.force });
  const took = formatDuration(durationClock.now() - started);
  console.log(`Backed up ${database} to ${report.path} in ${took}.`);
  console.log(`  size:      ${formatBytes(report.bytes)} (${report.bytes} bytes)`);
  console.log(`  schema:    ${describeLevel(report.migrations)}`);
  console.log(`  holds:     ${describeCounts(report.counts)}`);
  console.log("  integrity: ok (PRAGMA integrity_check)");
} catch (error) {
  const message = (error as Error).message;
  const hint = message.startsWith("No database at")
    ? " (DATABASE_PATH: set it to the server's database)"
    : "";
  console.error(`db:backup: ${message}${hint}`);
  process.exit(1);
}
