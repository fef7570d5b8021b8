import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { seedLarge } from "@/db/seed-large";
import { AUDIT_ACTIONS } from "@/lib/vocabulary";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function seeded(seed: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-seed-"));
  dirs.push(dir);
  const { sqlite } = openDatabase(path.join(dir, "large.db"));
  let n = 0;
  const makeKey = () => {
    n += 1;
    return { hash: `hash-${n}`, prefix: `rk_${String(n).padStart(7, "0")}` };
  };
  seedLarge(sqlite, { plans: 5, customers: 300, auditEntries: 2_000 }, makeKey, 1e12, seed);
  return sqlite;
}

describe("seedLarge", () => {
  it("makes the plans, customers and audit entries asked for, each a valid row", () => {
    const sqlite = seeded(1);
    const count = (table: string) =>
      (sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count("plans")).toBe(5);
    expect(count("plan_limits")).toBe(20);
    expect(count("customers")).toBe(300);
    expect(count("audit_log")).toBe(2_000);
    const actions = sqlite.prepare("SELECT DISTINCT action FROM audit_log").all() as {
      action: string;
    }[];
    for (const { action } of actions) expect(AUDIT_ACTIONS).toContain(action);
    const suspended = count("customers WHERE status = 'suspended'");
    expect(suspended).toBeGreaterThan(0);
    expect(suspended).toBeLessThan(60);
    // Entries stay within the 90 days before `now`.
    const span = sqlite.prepare("SELECT min(at) AS lo, max(at) AS hi FROM audit_log").get() as {
      lo: number;
      hi: number;
    };
    expect(span.hi).toBeLessThanOrEqual(1e12);
    expect(span.lo).toBeGreaterThanOrEqual(1e12 - 90 * 86_400_000);
    sqlite.close();
  });

  it("makes the same database from the same seed", () => {
    const names = (seed: number) => {
      const sqlite = seeded(seed);
      const rows = sqlite.prepare("SELECT name, plan_id, status FROM customers").all();
      sqlite.close();
      return rows;
    };
    expect(names(7)).toEqual(names(7));
    expect(names(7)).not.toEqual(names(8));
  });
});
