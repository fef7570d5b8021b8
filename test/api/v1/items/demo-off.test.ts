// RATEKEEPER_DEMO=off: a production install has no demo customer and no demo items routes.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DELETE as deleteItem,
  GET as getItem,
  PATCH as patchItem,
} from "@/app/api/v1/items/[id]/route";
import { POST as bulk } from "@/app/api/v1/items/bulk/route";
import { POST as createItem, GET as listItems } from "@/app/api/v1/items/route";
import { insertCustomer } from "@/db/queries/customers";
import { listPlans } from "@/db/queries/plans";
import { generateApiKey } from "@/lib/policy/api-key";
import { createRuntime, type Runtime, setRuntime } from "@/lib/runtime";
import { FakeClock } from "../../../support/fake-clock";
import { api, idParams, START_MS } from "../../../support/runtime";

describe("with the demo off (RATEKEEPER_DEMO=off)", () => {
  let dir: string;
  let runtime: Runtime;
  let lines: string[];

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-demo-off-"));
    lines = [];
    const log = { info: (m: string) => lines.push(m), warn() {}, error() {} };
    runtime = createRuntime({
      databasePath: path.join(dir, "test.db"),
      clock: new FakeClock(START_MS),
      adminPassword: "test-password",
      log,
      demo: false,
      tokenUseFlushIntervalMs: 0,
      usage: { timers: false },
    });
    setRuntime(runtime);
  });
  afterEach(() => {
    setRuntime(undefined);
    runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Regression: the demo customer could not be turned off for a production install.
  it("seeds the plans but no demo customer, and prints no demo key", () => {
    expect(listPlans(runtime.db).map((plan) => plan.slug)).toEqual(["enterprise", "free", "pro"]);
    expect(runtime.policy.snapshot.byId.size).toBe(0);
    expect(lines.some((line) => line.includes("Demo customer API key"))).toBe(false);
    expect(lines).toContain(
      "RATEKEEPER_DEMO=off: the demo items routes (/api/v1/items) answer 404.",
    );
  });

  // Regression: the toy /api/v1/items routes could not be turned off.
  it("answers every demo items route 404 with a problem body, even to a good key, taking nothing", async () => {
    const key = generateApiKey();
    const plans = listPlans(runtime.db);
    insertCustomer(
      runtime.db,
      {
        name: "Paying Co",
        planId: plans.find((plan) => plan.slug === "free")?.id as number,
        apiKeyHash: key.hash,
        apiKeyPrefix: key.prefix,
      },
      START_MS,
    );
    runtime.policy.applyEdit();
    const answers = [
      await listItems(api("/api/v1/items", { key: key.key })),
      await createItem(api("/api/v1/items", { key: key.key, body: { name: "a" } })),
      await bulk(api("/api/v1/items/bulk", { key: key.key, body: { items: [{ name: "a" }] } })),
      await getItem(api("/api/v1/items/1", { key: key.key }), idParams(1)),
      await patchItem(
        api("/api/v1/items/1", { key: key.key, method: "PATCH", body: { name: "b" } }),
        idParams(1),
      ),
      await deleteItem(api("/api/v1/items/1", { key: key.key, method: "DELETE" }), idParams(1)),
      await listItems(api("/api/v1/items")),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(await answer.json()).toEqual({ type: "about:blank", title: "Not found", status: 404 });
      expect(answer.headers.get("RateLimit")).toBeNull();
    }
    expect(runtime.limiter.size).toBe(0);
  });
});
