// Backups that restore, end to end: a real server (dist/server.mjs) keeps creating customers for
// a client while `npm run db:backup` copies its database; `npm run db:restore` puts the copy in
// place of another database, and a second server started on it answers the admin API as the
// first did at the backup's moment: the same plans, customers, key hashes, service tokens,
// usage and audit log, with no gap in the audit log.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Admin,
  BUILD_TIMEOUT_MS,
  type RatekeeperServer,
  startRatekeeper,
} from "../sdk/support/ratekeeper-server";

const HOUR = 3_600_000;

let dir: string;
let original: RatekeeperServer | undefined;
let restored: RatekeeperServer | undefined;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-backup-restore-"));
});

afterAll(async () => {
  await original?.stop();
  await restored?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** runScript runs `npm run <script> -- args` as npm would (tsx), and resolves with its outcome. */
async function runScript(
  script: "db-backup" | "db-restore",
  args: string[],
  databasePath: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join("scripts", `${script}.ts`), ...args],
    {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: os.tmpdir(),
        NODE_ENV: "production",
        DATABASE_PATH: databasePath,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

async function getJson(admin: Admin, route: string): Promise<Record<string, unknown>> {
  const response = await admin.request("GET", route);
  if (response.status !== 200)
    throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** everyPage reads a paged admin list to its end (newest first), 200 rows a page. */
async function everyPage<T>(admin: Admin, route: string, field: string): Promise<T[]> {
  const rows: T[] = [];
  let after: string | null = null;
  do {
    const query: string = after === null ? "" : `&after=${after}`;
    const page = await getJson(admin, `${route}?limit=200${query}`);
    rows.push(...(page[field] as T[]));
    after = page.next as string | null;
  } while (after !== null);
  return rows;
}

interface CustomerRow {
  id: number;
  planId: number;
  traffic?: unknown;
}

interface AuditRow {
  id: number;
  action: string;
  entityId: string | null;
}

interface PlanRow {
  id: number;
  customerCount: number;
}

/** decide asks the decision API for one read of the customer with `key`. */
async function decide(url: string, token: string, key: string) {
  const response = await fetch(`${url}/api/v1/decisions`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ key, operation: "read" }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("a backup taken while a client keeps creating customers", () => {
  it(
    "passes integrity_check, and a server started on its restored copy answers as the original did at the backup's moment",
    async () => {
      const databasePath = path.join(dir, "original", "ratekeeper.db");
      original = await startRatekeeper({
        DATABASE_PATH: databasePath,
        RATEKEEPER_DEMO: "off",
        USAGE_FLUSH_INTERVAL_MS: "100",
      });
      const { admin, url } = original;
      const plan = await admin.createPlan([{ operation: "read", count: 100, periodMs: 60_000 }]);
      const acme = await admin.createCustomer(plan.id);
      const service = await admin.createServiceToken(["decide"]);
      for (let i = 0; i < 3; i++) {
        expect((await decide(url, service.token, acme.apiKey)).body.allowed).toBe(true);
      }
      // The decisions' usage is in SQLite (flushed every 100 ms) before the backup.
      const now = Date.now();
      const usageRoute = `/api/admin/usage?customerId=${acme.id}&granularity=minute&from=${now - HOUR}&to=${now + HOUR}`;
      await expect
        .poll(async () => JSON.stringify(await getJson(admin, usageRoute)), { timeout: 10_000 })
        .toMatch(/"allowed":3/);
      const usageBefore = await getJson(admin, usageRoute);
      // Bulk, so the copy takes a while: 60 days of hourly rollups over many plans' rows.
      const filler = new Database(databasePath, { timeout: 10_000 });
      const insert = filler.prepare(
        "INSERT INTO usage_hours (start_ms, customer_id, operation, plan_id, allowed) VALUES (?, ?, ?, ?, 1)",
      );
      const hourStart = now - (now % HOUR);
      filler.transaction(() => {
        for (let h = 2; h < 60 * 24; h++) {
          for (let p = 1000; p < 1100; p++) {
            insert.run(hourStart - h * HOUR, acme.id, "write", p);
          }
        }
      })();
      filler.close();

      // The client: one customer after another, each with its audit entry, until told to stop.
      let created = 0;
      let writing = true;
      const writer = (async () => {
        while (writing) {
          await admin.createCustomer(plan.id);
          created++;
        }
      })();
      await expect.poll(() => created, { timeout: 20_000 }).toBeGreaterThanOrEqual(5);
      const createdBefore = created;
      const backupFile = path.join(dir, "backup.db");
      const backup = await runScript("db-backup", [backupFile], databasePath);
      const createdAfter = created;
      // A few more after the backup: the original moves on.
      await expect.poll(() => created, { timeout: 20_000 }).toBeGreaterThan(createdAfter + 5);
      writing = false;
      await writer;

      expect(backup.stderr).toBe("");
      expect(backup.code).toBe(0);
      expect(backup.stdout).toContain(`to ${backupFile} in `);
      expect(backup.stdout).toContain("  integrity: ok (PRAGMA integrity_check)");
      const copy = new Database(backupFile, { readonly: true });
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const writerCustomersInBackup =
        (copy.prepare("SELECT count(*) AS n FROM customers").get() as { n: number }).n - 1;
      copy.close();
      // The client wrote on both sides of the backup's moment.
      expect(writerCustomersInBackup).toBeGreaterThan(createdBefore);
      expect(writerCustomersInBackup).toBeLessThan(createdAfter);
      expect(created).toBeGreaterThan(writerCustomersInBackup);
      console.log(
        "CONCURRENCY",
        createdBefore,
        writerCustomersInBackup,
        createdAfter,
        created,
        backup.stdout,
      );

      // A restore is refused while the original runs on its database.
      const refused = await runScript("db-restore", [backupFile], databasePath);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("is open in another process (a running server?)");

      // The original's answers, now that the client has stopped.
      const plansThen = (await getJson(admin, "/api/admin/plans")).plans as PlanRow[];
      const customersThen = await everyPage<CustomerRow>(
        admin,
        "/api/admin/customers",
        "customers",
      );
      const auditThen = await everyPage<AuditRow>(admin, "/api/admin/audit", "entries");
      const tokensThen = (await getJson(admin, "/api/admin/service-tokens")).serviceTokens as {
        id: number;
        name: string;
        prefix: string;
        scopes: string[];
      }[];

      const restoredPath = path.join(dir, "restored", "ratekeeper.db");
      const restore = await runScript("db-restore", [backupFile], restoredPath);
      expect(restore.stderr).toBe("");
      expect(restore.code).toBe(0);
      restored = await startRatekeeper({
        DATABASE_PATH: restoredPath,
        RATEKEEPER_DEMO: "off",
        USAGE_FLUSH_INTERVAL_MS: "100",
      });
      const again = restored.admin;

      // Customers: exactly the original's up to the backup's last one (live traffic aside, it
      // is in memory, not in the database).
      const customersNow = await everyPage<CustomerRow>(again, "/api/admin/customers", "customers");
      const lastCustomer = Math.max(...customersNow.map((c) => c.id));
      const withoutTraffic = ({ traffic: _traffic, ...rest }: CustomerRow) => rest;
      expect(customersNow.map(withoutTraffic)).toEqual(
        customersThen.filter((c) => c.id <= lastCustomer).map(withoutTraffic),
      );
      expect(customersNow).toHaveLength(writerCustomersInBackup + 1);

      // Audit log: the original's up to the backup's last entry, ids without a gap, and every
      // customer with its entry.
      const auditNow = await everyPage<AuditRow>(again, "/api/admin/audit", "entries");
      const lastEntry = auditNow[0]?.id ?? 0;
      expect(auditNow).toEqual(auditThen.filter((entry) => entry.id <= lastEntry));
      expect(auditNow.map((entry) => entry.id)).toEqual(
        Array.from({ length: lastEntry }, (_, i) => lastEntry - i),
      );
      const createdEntries = new Set(
        auditNow.filter((e) => e.action === "customer.create").map((e) => Number(e.entityId)),
      );
      for (const customer of customersNow) expect(createdEntries.has(customer.id)).toBe(true);

      // Plans: the same, each counting its customers as of the backup's moment.
      const plansNow = (await getJson(again, "/api/admin/plans")).plans as PlanRow[];
      expect(plansNow).toEqual(
        plansThen.map((p) => ({
          ...p,
          customerCount:
            p.customerCount -
            customersThen.filter((c) => c.planId === p.id && c.id > lastCustomer).length,
        })),
      );

      // Service tokens and key hashes: the secrets shown once still work.
      const tokensNow = (await getJson(again, "/api/admin/service-tokens")).serviceTokens as {
        id: number;
        name: string;
        prefix: string;
        scopes: string[];
      }[];
      const identity = (t: { id: number; name: string; prefix: string; scopes: string[] }) => ({
        id: t.id,
        name: t.name,
        prefix: t.prefix,
        scopes: t.scopes,
      });
      expect(tokensNow.map(identity)).toEqual(tokensThen.map(identity));

      // Usage: the same series (`now` aside: the time of the answer).
      const { now: _then, ...usageThen } = usageBefore;
      const { now: _now, ...usageNow } = await getJson(again, usageRoute);
      expect(usageNow).toEqual(usageThen);

      const decision = await decide(restored.url, service.token, acme.apiKey);
      expect(decision.status).toBe(200);
      expect(decision.body).toMatchObject({ allowed: true, customer: { id: acme.id } });
    },
    BUILD_TIMEOUT_MS,
  );
});

describe("a server with scheduled backups (BACKUP_DIR)", () => {
  it(
    "takes its first backup at start from the bundle's worker, and reports it at /api/metrics",
    async () => {
      const backups = path.join(dir, "scheduled");
      const server = await startRatekeeper({
        DATABASE_PATH: path.join(dir, "scheduled-app", "ratekeeper.db"),
        BACKUP_DIR: backups,
        BACKUP_INTERVAL: "6h",
        BACKUP_KEEP: "3",
      });
      try {
        await expect
          .poll(() => server.instance.count("Backup written: "), { timeout: 20_000 })
          .toBe(1);
        const log = server.instance.log();
        expect(log).toContain(
          `Scheduled backups: every 6 h into ${backups}, keeping the newest 3.`,
        );
        const written = /Backup written: (\S+) \(/.exec(log)?.[1] as string;
        expect(path.dirname(written)).toBe(backups);
        expect(path.basename(written)).toMatch(/^ratekeeper-\d{8}T\d{6}Z\.db$/);
        const copy = new Database(written, { readonly: true });
        expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
        copy.close();
        const metrics = await (await fetch(`${server.url}/api/metrics`)).text();
        expect(metrics).toMatch(/\nratekeeper_backup_last_success_age_seconds \d/);
        expect(metrics).toContain("\nratekeeper_backup_failures_total 0\n");
      } finally {
        await server.stop();
      }
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    "keeps serving when a backup fails, says so loudly in its log, and counts it",
    async () => {
      // A file where BACKUP_DIR should be a directory: every backup fails.
      const blocked = path.join(dir, "not-a-directory");
      writeFileSync(blocked, "");
      const server = await startRatekeeper({
        DATABASE_PATH: path.join(dir, "failing-app", "ratekeeper.db"),
        BACKUP_DIR: blocked,
      });
      try {
        await expect
          .poll(() => server.instance.count("BACKUP FAILED: could not write "), { timeout: 20_000 })
          .toBe(1);
        const log = server.instance.log();
        expect(log).toContain(`${blocked} is not a directory`);
        // Routine failures in one line with the cause and the next try; no stack of the bundle.
        expect(log).toMatch(
          /BACKUP FAILED: could not write [^\n]*; trying again in 15 min \(at [^\n]*\) ?\n/,
        );
        expect(log).toContain(`Could not create BACKUP_DIR ${blocked}: `);
        expect(log).not.toMatch(/\n\s+at /);
        const metrics = await (await fetch(`${server.url}/api/metrics`)).text();
        expect(metrics).toContain("\nratekeeper_backup_failures_total 1\n");
        expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
        expect(server.instance.exitCode()).toBeNull();
      } finally {
        await server.stop();
      }
    },
    BUILD_TIMEOUT_MS,
  );
});
