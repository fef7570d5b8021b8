// Edges against a real control plane: the server entry (dist/server.mjs) as the full app on a
// temporary database, and as two edges (RATEKEEPER_ROLE=edge), each in a working directory of
// its own with no database file, all on one redis-server on 127.0.0.1.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { healthAnswerSchema } from "@/lib/schemas/health-answer.schema";
import { type Instance, startInstance } from "../../e2e/support/instances";
import {
  BUILD_TIMEOUT_MS,
  type RatekeeperServer,
  startRatekeeper,
} from "../sdk/support/ratekeeper-server";
import { answerOf } from "../support/answer-schema";
import { type RedisServer, startRedisServer } from "../support/redis-server";

const HOUR = 3_600_000;
/** K is the read limit per hour of the first plan; N the concurrent decisions sent against it. */
const K = 25;
const N = 80;

interface Edge {
  instance: Instance;
  dir: string;
  url: string;
}

let redis: RedisServer;
let control: RatekeeperServer;
const edges: Edge[] = [];
let token: string;

async function startEdge(name: string, until: "ready" | "listening" = "ready"): Promise<Edge> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-edge-"));
  const instance = await startInstance({
    name,
    cwd: dir,
    until,
    env: {
      RATEKEEPER_ROLE: "edge",
      REDIS_URL: redis.url,
      // Where a database would go, were one opened: the test checks that none is.
      DATABASE_PATH: path.join(dir, "ratekeeper.db"),
      CONTROL_PLANE_URL: control.url,
    },
  });
  const edge = { instance, dir, url: instance.baseURL };
  edges.push(edge);
  return edge;
}

interface Result {
  status: number;
  body: {
    allowed?: boolean;
    reason?: string;
    limit?: { count: number } | null;
    title?: string;
    detail?: string;
  };
}

async function decide(url: string, body: Record<string, unknown>): Promise<Result> {
  const response = await fetch(`${url}/api/v1/decisions`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  });
  return { status: response.status, body: (await response.json()) as Result["body"] };
}

/** until polls `check` every 20 ms until it holds, and fails once `deadlineMs` have passed. */
async function until(what: string, deadlineMs: number, check: () => Promise<boolean>) {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > deadlineMs) {
      throw new Error(`${what}: not within ${deadlineMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function customerOn(reads: number) {
  const plan = await control.admin.createPlan([
    { operation: "read", count: reads, periodMs: HOUR },
    { operation: "write", count: 1, periodMs: HOUR },
  ]);
  const customer = await control.admin.createCustomer(plan.id);
  // The edges learn of the new customer from Redis: wait until both know its key.
  for (const edge of edges) {
    await until(`edge ${edge.instance.name} knows the new customer`, 2_000, async () => {
      const peek = await decide(edge.url, { key: customer.apiKey, operation: "read", peek: true });
      return peek.body.reason !== "unknown_key";
    });
  }
  return { plan, customer };
}

beforeAll(async () => {
  redis = await startRedisServer();
  control = await startRatekeeper({ REDIS_URL: redis.url });
  token = (await control.admin.createServiceToken()).token;
  await Promise.all([startEdge("edge-a"), startEdge("edge-b")]);
  // The token was created before the edges started, so they know it from their first load.
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  for (const edge of edges) {
    await edge.instance.stop();
    rmSync(edge.dir, { recursive: true, force: true });
  }
  await control?.stop();
  await redis?.close();
});

describe("edges: the data plane with no database, its policy from Redis", () => {
  it("admits exactly K of N concurrent decisions spread over two edges", async () => {
    const { customer } = await customerOn(K);
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        decide((edges[i % 2] as Edge).url, { key: customer.apiKey, operation: "read" }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.allowed).length).toBe(K);
    expect(results.filter((r) => r.body.reason === "rate_limited").length).toBe(N - K);
    // Both edges admitted some: the bucket is shared through Redis, not per edge.
    const admittedOn = (edge: number) => results.filter((r, i) => i % 2 === edge && r.body.allowed);
    expect(admittedOn(0).length).toBeGreaterThan(0);
    expect(admittedOn(1).length).toBeGreaterThan(0);
  });

  it("an edit on the control plane changes both edges' next decisions within one second", async () => {
    const { plan, customer } = await customerOn(5);
    const edited = await control.admin.request("PATCH", `/api/admin/plans/${plan.id}`, {
      limits: [
        { operation: "read", count: 7, periodMs: HOUR },
        { operation: "write", count: 1, periodMs: HOUR },
      ],
    });
    expect(edited.status).toBe(200);
    const waits = await Promise.all(
      edges.map((edge) =>
        until(`edge ${edge.instance.name} decides on the edited plan`, 1_000, async () => {
          const next = await decide(edge.url, { key: customer.apiKey, operation: "read" });
          return next.body.limit?.count === 7;
        }),
      ),
    );
    expect(waits.every((ms) => ms <= 1_000)).toBe(true);

    const suspended = await control.admin.request("PATCH", `/api/admin/customers/${customer.id}`, {
      status: "suspended",
    });
    expect(suspended.status).toBe(200);
    for (const edge of edges) {
      await until(`edge ${edge.instance.name} refuses the suspended customer`, 1_000, async () => {
        const next = await decide(edge.url, { key: customer.apiKey, operation: "read" });
        return next.body.reason === "suspended";
      });
    }
  });

  it("serves health and metrics, and answers 404 naming the control plane for the rest", async () => {
    const edge = edges[0] as Edge;
    const health = await fetch(`${edge.url}/api/health`);
    expect(await answerOf(health, 200, healthAnswerSchema)).toMatchObject({
      status: "ok",
      role: "edge",
      store: "redis",
      redis: "up",
    });
    const metrics = await fetch(`${edge.url}/api/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain("ratekeeper_decisions_total");

    for (const route of ["/api/admin/plans", "/api/v1/items", "/api/bench/items"]) {
      const response = await fetch(`${edge.url}${route}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const problem = (await response.json()) as { title: string; detail: string };
      expect(problem.title).toBe("Not served by an edge");
      expect(problem.detail).toContain(control.url);
    }
    const page = await fetch(`${edge.url}/customers`);
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain(`href="${control.url}/"`);
  });

  // Regression: after FLUSHALL with the control plane idle, a new edge answered 503 Policy not
  // loaded for as long as nobody edited anything, and every edge's log began with a failure to
  // read the snapshot logged before its connection was open, hiding the real cause.
  it("after FLUSHALL with the control plane idle, a newly started edge is ready within 3 s, its log naming each state once", async () => {
    const { customer } = await customerOn(2);
    // The edges started with the suite logged no failure before their connection was open.
    for (const edge of edges) {
      expect(edge.instance.count("Could not read the policy snapshot")).toBe(0);
      expect(edge.instance.count("Connecting to Redis at")).toBe(1);
      expect(edge.instance.count("loaded from Redis")).toBe(1);
    }
    const admin = redis.client();
    // Frozen, the control plane cannot rewrite the snapshot before the edge has looked.
    control.instance.signal("SIGSTOP");
    let fresh: Edge;
    let took: number;
    try {
      await admin.flushall();
      admin.disconnect();
      const started = performance.now();
      fresh = await startEdge("edge-fresh", "listening");
      await until("the fresh edge finds no snapshot", 2_000, async () =>
        fresh.instance.log().includes("Waiting for the policy snapshot: Redis holds none"),
      );
      const refused = await decide(fresh.url, { key: customer.apiKey, operation: "read" });
      expect(refused.status).toBe(503);
      control.instance.signal("SIGCONT");
      await until("the fresh edge becomes ready", 3_000, async () => {
        const res = await fetch(`${fresh.url}/api/health`);
        return res.status === 200;
      });
      took = performance.now() - started;
    } finally {
      control.instance.signal("SIGCONT");
    }
    expect(took).toBeLessThanOrEqual(3_000);
    const decided = await decide(fresh.url, { key: customer.apiKey, operation: "read" });
    expect(decided.status).toBe(200);
    expect(decided.body.allowed).toBe(true);
    const log = fresh.instance.log();
    const states = [
      "Connecting to Redis at",
      "Waiting for the policy snapshot: Redis holds none",
      "loaded from Redis",
    ];
    for (const line of states) expect(fresh.instance.count(line)).toBe(1);
    const at = states.map((line) => log.indexOf(line));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(fresh.instance.count("Could not read the policy snapshot")).toBe(0);
    expect(control.instance.count("Redis holds no policy snapshot at")).toBe(1);
  });

  it("an edge started while Redis is down answers 503, and decides once Redis is back", async () => {
    const { customer } = await customerOn(3);
    await redis.stop();
    const late = await startEdge("edge-late", "listening");
    const health = await fetch(`${late.url}/api/health`);
    expect(await answerOf(health, 503, healthAnswerSchema)).toMatchObject({
      status: "starting",
      role: "edge",
      policy: null,
    });
    const refused = await decide(late.url, { key: customer.apiKey, operation: "read" });
    expect(refused.status).toBe(503);
    expect(refused.body.title).toBe("Policy not loaded");
    // The edges that hold a policy keep deciding, under the failure policy (reads fail open).
    const open = await decide((edges[0] as Edge).url, { key: customer.apiKey, operation: "read" });
    expect(open.body.allowed).toBe(true);

    // Redis comes back empty (no persistence): the control plane writes the snapshot again.
    await redis.start();
    await until("the late edge becomes ready", 10_000, async () => {
      const res = await fetch(`${late.url}/api/health`);
      return res.status === 200;
    });
    const decided = await decide(late.url, { key: customer.apiKey, operation: "read" });
    expect(decided.status).toBe(200);
    expect(decided.body.allowed).toBe(true);
    // The other edges reconnect by themselves and decide on Redis again.
    for (const edge of edges) {
      await until(`edge ${edge.instance.name} is back on Redis`, 5_000, async () => {
        await decide(edge.url, { key: customer.apiKey, operation: "read", peek: true });
        const scrape = await (await fetch(`${edge.url}/api/metrics`)).text();
        return scrape.includes("\nratekeeper_store_up 1\n");
      });
    }
  });

  it("killing the control plane leaves the edges deciding, and no edge opened a database", async () => {
    // One read per edge takes the whole limit.
    const { customer } = await customerOn(edges.length);
    await control.instance.stop();
    for (const edge of edges) {
      const result = await decide(edge.url, { key: customer.apiKey, operation: "read" });
      expect(result.status).toBe(200);
      expect(result.body.reason).toBe("ok");
    }
    // The edges share the bucket: one more read, on any of them, is refused.
    const more = await decide((edges[1] as Edge).url, { key: customer.apiKey, operation: "read" });
    expect(more.body.reason).toBe("rate_limited");
    for (const edge of edges) {
      expect(existsSync(path.join(edge.dir, "ratekeeper.db"))).toBe(false);
      expect(readdirSync(edge.dir)).toEqual([]);
    }
  });
});
