// npm run db:restore -- FILE: replaces DATABASE_PATH with a backup, after checking the backup's
// integrity and schema, and refuses while a server has the database open (lib/backup/restore.ts).
// See docs/backups.md. Exit 0 when restored, 1 when refused or failed, 2 for bad arguments.
import { describeCounts, describeLevel, formatBytes } from "../lib/backup/backup-report";
import { restoreBackup } from "../lib/backup/restore";
import { appClock } from "../lib/clock";
import { getEnv } from "../lib/env";
import { parseDbArgs, RESTORE_USAGE, resolveFileArg } from "./db-args";

const command = parseDbArgs(process.argv.slice(2), []);
if (command.action === "help") {
  console.log(RESTORE_USAGE);
  process.exit(0);
}
if (command.action === "refuse") {
  console.error(`db:restore: ${command.message}\n\n${RESTORE_USAGE}`);
  process.exit(2);
}
let database: string;
try {
  database = getEnv().DATABASE_PATH;
} catch (error) {
  console.error(`db:restore: ${(error as Error).message}`);
  process.exit(2);
}
try {
  const backup = resolveFileArg(command.file, process.env.INIT_CWD, process.cwd());
  const report = restoreBackup(backup, database, appClock.now());
  console.log(`Restored ${report.database} from ${backup}.`);
  console.log(`  size:      ${formatBytes(report.bytes)} (${report.bytes} bytes)`);
  console.log(`  schema:    ${describeLevel(report.migrations)}`);
  console.log(`  holds:     ${describeCounts(report.counts)}`);
  console.log("  integrity: ok (PRAGMA integrity_check)");
  if (report.keptAs) {
    console.log(
      `The database it replaced is kept at ${report.keptAs}: delete it once you are sure.`,
    );
  }
  console.log("Start the server on it.");
} catch (error) {
  console.error(`db:restore: ${(error as Error).message}`);
  process.exit(1);
}
