import { readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as listItems } from "@/app/api/v1/items/route";
import { type Runtime, setRuntime } from "@/lib/runtime";
import { api, createTestRuntime, type TestRuntime } from "../support/runtime";

const SECRET = "secret internal detail /var/lib/ratekeeper.db";
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (request: Request, route?: { params: Promise<unknown> }) => Promise<Response>;

/** routeHandlers imports every route module under app/api and returns its method handlers. */
async function routeHandlers(): Promise<{ name: string; method: string; handler: Handler }[]> {
  const root = path.resolve(import.meta.dirname, "../../app/api");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
    (file) => path.basename(file) === "route.ts",
  );
  const found: { name: string; method: string; handler: Handler }[] = [];
  for (const file of files.sort()) {
    const mod = (await import(path.join(root, file))) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = mod[method];
      if (typeof handler === "function")
        found.push({ name: `${method} ${file}`, method, handler: handler as Handler });
    }
  }
  return found;
}

/** failingRuntime is the test runtime with every member but the logger throwing. */
function failingRuntime(runtime: Runtime): Runtime {
  return new Proxy(runtime, {
    get(target, property, receiver) {
      if (property === "log") return Reflect.get(target, property, receiver);
      throw new Error(SECRET);
    },
  });
}

describe("unexpected failures in route handlers", () => {
  let t: TestRuntime;
  const bench = process.env.RATEKEEPER_BENCH;
  beforeEach(() => {
    t = createTestRuntime();
    process.env.RATEKEEPER_BENCH = "1";
  });
  afterEach(() => {
    process.env.RATEKEEPER_BENCH = bench;
    if (bench === undefined) delete process.env.RATEKEEPER_BENCH;
    t.cleanup();
  });

  // Regression: failures outside a handler's own try (a body parse, the session lookup, the
  // health and metrics routes) reached Next, which answered an empty 500.
  it("answers every route's failure with a 500 problem body, no internals, logged once", async () => {
    const handlers = await routeHandlers();
    expect(handlers.length).toBeGreaterThanOrEqual(25);
    setRuntime(failingRuntime(t.runtime));
    for (const { name, method, handler } of handlers) {
      const hasBody = method !== "GET" && method !== "HEAD";
      const request = new Request("http://test/api/any?customer=1", {
        method,
        headers: {
          authorization: `Bearer ${t.demoKey}`,
          cookie: "rk_session=abc",
          ...(hasBody ? { "content-type": "application/json" } : {}),
        },
        body: hasBody ? "{}" : undefined,
      });
      const logged = t.lines.length;
      const response = await handler(request, {
        params: Promise.resolve({ id: "1", operation: "read" }),
      });
      expect(response.status, name).toBe(500);
      expect(response.headers.get("content-type"), name).toBe("application/problem+json");
      const text = await response.text();
      expect(text, name).not.toContain("secret");
      expect(JSON.parse(text), name).toMatchObject({ title: "Internal error", status: 500 });
      expect(t.lines.slice(logged), name).toEqual([expect.stringMatching(/ failed$/)]);
    }
  });

  it("keeps the RateLimit fields on a protected route that fails after its decision", async () => {
    t.runtime.sqlite.close();
    const response = await listItems(api("/api/v1/items", { key: t.demoKey }));
    expect(response.status).toBe(500);
    expect(response.headers.get("RateLimit")).toBe('"read-5-per-1s";r=4;t=1');
    expect((await response.json()).title).toBe("Internal error");
    expect(t.lines.filter((line) => line.endsWith("failed"))).toEqual(["GET /api/v1/items failed"]);
  });
});
