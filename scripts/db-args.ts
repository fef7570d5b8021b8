// The arguments of `npm run db:backup -- FILE [--force]` and `npm run db:restore -- FILE`: pure
// decisions here (tested); scripts/db-backup.ts and scripts/db-restore.ts act on them.
import path from "node:path";

/** BACKUP_USAGE is db:backup's usage, printed with --help and after a bad argument. */
export const BACKUP_USAGE = `Usage: npm run db:backup -- FILE [--force]

Writes a consistent copy of the database at DATABASE_PATH (data/ratekeeper.db by default) to FILE,
safe while the server runs. FILE must not exist; --force replaces it.`;

/** RESTORE_USAGE is db:restore's usage, printed with --help and after a bad argument. */
export const RESTORE_USAGE = `Usage: npm run db:restore -- FILE

Replaces the database at DATABASE_PATH (data/ratekeeper.db by default) with the backup FILE.
Stop the server first. The database it replaces is kept beside it, as <name>.replaced-<UTC time>.`;

/** DbCommand is what a command line asks for: help, a run, or a mistake to explain. */
export type DbCommand =
  | { action: "help" }
  | { action: "run"; file: string; force: boolean }
  | { action: "refuse"; message: string };

/**
 * parseDbArgs reads the arguments npm passes after its own `--`: one FILE, and `--force` where
 * `flags` allows it (db:backup); a further `--` ends the options, for a FILE that starts with a
 * dash. An empty name, an unknown option or a second file is refused with a message.
 */
export function parseDbArgs(args: readonly string[], flags: readonly "--force"[]): DbCommand {
  const files: string[] = [];
  let force = false;
  let optionsEnded = false;
  for (const arg of args) {
    if (!optionsEnded && arg.startsWith("-")) {
      if (arg === "--help" || arg === "-h") return { action: "help" };
      if (arg === "--") optionsEnded = true;
      else if (arg === "--force" && flags.includes("--force")) force = true;
      else return { action: "refuse", message: `Unknown option ${arg}` };
    } else if (arg.trim() === "") return { action: "refuse", message: "FILE must not be empty" };
    else files.push(arg);
  }
  if (files.length === 0) return { action: "refuse", message: "Name the backup FILE" };
  if (files.length > 1) {
    return { action: "refuse", message: `One FILE only, got ${files.length}: ${files.join(", ")}` };
  }
  return { action: "run", file: files[0] as string, force };
}

/**
 * resolveFileArg makes a FILE named on the command line absolute, relative to the directory the
 * user ran npm in: npm runs a script in the project's folder, and says where it was run in
 * INIT_CWD (`initCwd`); without it (the script run directly), relative to `cwd`.
 */
export function resolveFileArg(file: string, initCwd: string | undefined, cwd: string): string {
  const base = initCwd === undefined || initCwd.trim() === "" ? cwd : initCwd;
  return path.resolve(base, file);
}
