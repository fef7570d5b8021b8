// The command lines `npm run db:backup -- FILE [--force]` and `npm run db:restore -- FILE`, run
// as npm runs them (tsx, the script, the environment), on temporary databases.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBackup } from "@/lib/backup/backup-file";
import { BACKUP_USAGE, RESTORE_USAGE } from "@/scripts/db-args";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let t: TestRuntime;
let dir: string;
/** database is a copy of the test runtime's database that no connection holds open. */
let database: string;

beforeAll(() => {
  t = createTestRuntime();
  t.addCustomer("pro", "Acme");
  dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-db-cli-"));
  // Readable by anyone: one case runs the command as an unprivileged user.
  chmodSync(dir, 0o755);
  database = path.join(dir, "ratekeeper.db");
  writeBackup(t.databasePath, database);
});

afterAll(() => {
  t.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(
  script: "db-backup" | "db-restore",
  args: string[],
  env: Record<string, string> = {},
  user: { uid?: number; gid?: number } = {},
): Run {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join("scripts", `${script}.ts`), ...args],
    {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: os.tmpdir(),
        NODE_ENV: "production",
        DATABASE_PATH: database,
        ...env,
      },
      encoding: "utf8",
      timeout: 60_000,
      ...user,
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const TIMEOUT = 60_000;

describe("npm run db:backup", () => {
  it(
    "writes FILE and prints its path, size, schema level and what it holds",
    () => {
      const target = path.join(dir, "first.db");
      const { status, stdout, stderr } = run("db-backup", [target]);
      expect(stderr).toBe("");
      expect(status).toBe(0);
      expect(stdout).toMatch(
        new RegExp(`^Backed up ${database} to ${target} in (\\d+ ms|\\d+\\.\\d s)\\.\n`),
      );
      expect(stdout).toMatch(/ {2}size: {6}\d+(\.\d)? KiB \(\d+ bytes\)\n/);
      expect(stdout).toMatch(/ {2}schema: {4}(\d+) of \1 migrations \(00\d\d_\w+\)\n/);
      expect(stdout).toContain(
        "  holds:     3 plans, 2 customers, 0 service tokens, 0 audit entries (last id 0), 0 usage rows\n",
      );
      expect(stdout).toContain("  integrity: ok (PRAGMA integrity_check)\n");
      const copy = new Database(target, { readonly: true });
      expect(copy.prepare("SELECT name FROM customers ORDER BY id").all()).toEqual([
        { name: "Demo customer" },
        { name: "Acme" },
      ]);
      copy.close();
    },
    TIMEOUT,
  );

  it(
    "writes a relative FILE in the directory npm was run from (INIT_CWD), not the project folder, and prints its absolute path",
    () => {
      const where = path.join(dir, "ran-here");
      mkdirSync(where);
      const { status, stdout, stderr } = run("db-backup", ["rel-test.db"], { INIT_CWD: where });
      expect(stderr).toBe("");
      expect(status).toBe(0);
      expect(stdout).toContain(` to ${path.join(where, "rel-test.db")} in `);
      expect(existsSync(path.join(where, "rel-test.db"))).toBe(true);
      expect(existsSync(path.join(process.cwd(), "rel-test.db"))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    "refuses the database's -wal as FILE, even with --force, exit 1",
    () => {
      const { status, stderr } = run("db-backup", [`${database}-wal`, "--force"]);
      expect(stderr).toBe(
        `db:backup: ${database}-wal is the database's write-ahead log (its -wal file, which holds its latest writes): name another file\n`,
      );
      expect(status).toBe(1);
      expect(existsSync(`${database}-wal`)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    "refuses bad arguments with the reason and the usage, exit 2",
    () => {
      for (const [args, reason] of [
        [[], "Name the backup FILE"],
        [["a.db", "b.db"], "One FILE only, got 2: a.db, b.db"],
        [["a.db", "--overwrite"], "Unknown option --overwrite"],
      ] as const) {
        const { status, stdout, stderr } = run("db-backup", [...args]);
        expect(status, reason).toBe(2);
        expect(stdout).toBe("");
        expect(stderr).toBe(`db:backup: ${reason}\n\n${BACKUP_USAGE}\n`);
      }
      expect(existsSync(path.join(dir, "a.db"))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    "names a missing database and the variable that points at it, exit 1",
    () => {
      const missing = path.join(dir, "no-such.db");
      const { status, stderr } = run("db-backup", [path.join(dir, "x.db")], {
        DATABASE_PATH: missing,
      });
      expect(status).toBe(1);
      expect(stderr).toBe(
        `db:backup: No database at ${missing} (DATABASE_PATH: set it to the server's database)\n`,
      );
      expect(existsSync(path.join(dir, "x.db"))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    "refuses to replace an existing FILE without --force, and replaces it with --force",
    () => {
      const target = path.join(dir, "taken.db");
      writeFileSync(target, "an earlier backup");
      const refused = run("db-backup", [target]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toBe(
        `db:backup: ${target} exists: name a new file, or pass --force to replace it\n`,
      );
      expect(readFileSync(target, "utf8")).toBe("an earlier backup");
      const forced = run("db-backup", [target, "--force"]);
      expect(forced.stderr).toBe("");
      expect(forced.status).toBe(0);
      const copy = new Database(target, { readonly: true });
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      copy.close();
    },
    TIMEOUT,
  );

  it(
    "names a directory it may not write to, exit 1",
    () => {
      const locked = path.join(dir, "locked");
      mkdirSync(locked);
      chmodSync(locked, 0o555);
      // Root may write anywhere: the command runs as an unprivileged user then.
      const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const { status, stderr } = run("db-backup", [path.join(locked, "x.db")], {}, user);
      expect(stderr).toBe(
        `db:backup: Cannot write to the directory ${locked} (permission denied)\n`,
      );
      expect(status).toBe(1);
    },
    TIMEOUT,
  );

  it(
    "stops on a bad environment, naming the variable, exit 2",
    () => {
      const { status, stderr } = run("db-backup", [path.join(dir, "y.db")], {
        BACKUP_DIR: dir,
        BACKUP_INTERVAL: "often",
      });
      expect(status).toBe(2);
      expect(stderr).toBe(
        'db:backup: Invalid environment: BACKUP_INTERVAL must be a whole number and a unit (s, m, h or d), such as 30m, 6h or 1d; got "often"\n',
      );
    },
    TIMEOUT,
  );
});

describe("npm run db:restore", () => {
  it(
    "replaces the database with the backup, keeps the one it replaced, and says so",
    () => {
      const backup = path.join(dir, "to-restore.db");
      writeBackup(database, backup);
      const target = path.join(dir, "restored", "ratekeeper.db");
      mkdirSync(path.dirname(target));
      writeFileSync(target, "");
      const { status, stdout, stderr } = run("db-restore", [backup], { DATABASE_PATH: target });
      expect(stderr).toBe("");
      expect(status).toBe(0);
      expect(stdout).toContain(`Restored ${target} from ${backup}.\n`);
      expect(stdout).toContain("  holds:     3 plans, 2 customers,");
      expect(stdout).toMatch(
        new RegExp(
          `The database it replaced is kept at ${target}\\.replaced-\\d{8}T\\d{6}Z: delete it once you are sure\\.\n`,
        ),
      );
      const restored = new Database(target, { readonly: true });
      expect(restored.prepare("SELECT count(*) AS n FROM customers").get()).toEqual({ n: 2 });
      restored.close();
    },
    TIMEOUT,
  );

  it(
    "refuses while a process holds the database open, exit 1, and changes nothing",
    () => {
      const backup = path.join(dir, "while-open.db");
      writeBackup(database, backup);
      const { status, stderr } = run("db-restore", [backup], { DATABASE_PATH: t.databasePath });
      expect(status).toBe(1);
      expect(stderr).toBe(
        `db:restore: ${t.databasePath} is open in another process (a running server?): stop it, then restore\n`,
      );
      expect(t.runtime.sqlite.prepare("SELECT count(*) AS n FROM customers").get()).toEqual({
        n: 2,
      });
    },
    TIMEOUT,
  );

  it(
    "refuses bad arguments, exit 2, and a missing backup, exit 1",
    () => {
      const bad = run("db-restore", ["a.db", "--force"]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toBe(`db:restore: Unknown option --force\n\n${RESTORE_USAGE}\n`);
      const missing = run("db-restore", [path.join(dir, "none.db")]);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toBe(`db:restore: No backup at ${path.join(dir, "none.db")}\n`);
      const directory = run("db-restore", [dir]);
      expect(directory.status).toBe(1);
      expect(directory.stderr).toBe(
        `db:restore: ${dir} is a directory: name a backup file in it\n`,
      );
    },
    TIMEOUT,
  );

  it(
    "reads a relative backup FILE from the directory npm was run from (INIT_CWD)",
    () => {
      const where = path.join(dir, "restore-from-here");
      mkdirSync(where);
      writeBackup(database, path.join(where, "rel.db"));
      const target = path.join(dir, "restored-relative", "ratekeeper.db");
      const { status, stdout, stderr } = run("db-restore", ["rel.db"], {
        DATABASE_PATH: target,
        INIT_CWD: where,
      });
      expect(stderr).toBe("");
      expect(status).toBe(0);
      expect(stdout).toContain(`Restored ${target} from ${path.join(where, "rel.db")}.\n`);
    },
    TIMEOUT,
  );
});
