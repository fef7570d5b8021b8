import http from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GatewayConfig } from "@/lib/data-plane/gateway";
import type { Operation } from "@/lib/vocabulary";
import { type DataPlaneServer, startDataPlane } from "../../support/data-plane";
import { createTestRuntime, type TestCustomer, type TestRuntime } from "../../support/runtime";
import { startUpstream, type Upstream, type UpstreamHandler } from "../../support/upstream";
import { report, totalsOf } from "../../usage/usage-support";

const HOUR = 3_600_000;
const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";

describe("the gateway", () => {
  let t: TestRuntime;
  let upstream: Upstream | undefined;
  let server: DataPlaneServer | undefined;
  let customer: TestCustomer;

  beforeEach(() => {
    t = createTestRuntime();
    t.addPlan("gw", [
      { operation: "read", count: 5, periodMs: HOUR },
      { operation: "write", count: 3, periodMs: HOUR },
    ]);
    customer = t.addCustomer("gw", "Gateway customer");
  });
  afterEach(async () => {
    await server?.close();
    await upstream?.close();
    server = upstream = undefined;
    t.cleanup();
  });

  async function start(
    handler?: UpstreamHandler,
    config: Partial<GatewayConfig> & { path?: string; streaming?: boolean } = {},
  ): Promise<string> {
    upstream = await startUpstream(handler, { streaming: config.streaming });
    server = await startDataPlane(t.runtime, {
      gateway: {
        upstream: new URL(`${upstream.url}${config.path ?? ""}`),
        timeoutMs: config.timeoutMs ?? 5_000,
        maxBodyBytes: config.maxBodyBytes ?? 10 * 1024 * 1024,
      },
    });
    return `${server.url}/gw`;
  }

  const auth = (key = customer.key) => ({ authorization: `Bearer ${key}` });

  /** raw sends a GET with exactly this path and these fields (no URL normalisation). */
  function raw(
    path: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${server?.url}`, { path, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  function remaining(operation: Operation): number {
    const policy = t.runtime.policy.snapshot.byId.get(customer.id);
    if (!policy) throw new Error("no customer");
    return t.runtime.limiter.peekWithDetails({ customer: policy, operation, now: t.clock.now() })
      .tokensRemaining;
  }

  it("forwards an admitted request: path after /gw, query, customer fields; no key, cookie or hop-by-hop", async () => {
    await start();
    const res = await raw("/gw/items/7?expand=owner&x=%2F", {
      ...auth(),
      cookie: "session=secret",
      "x-trace": "abc",
      connection: "keep-alive, x-hop",
      "x-hop": "only this hop",
      "ratekeeper-customer-id": "999",
      "ratekeeper-plan": "enterprise",
      "x-forwarded-for": "6.6.6.6",
    });
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-policy"]).toBe('"read-5-per-1h";q=5;w=3600');
    expect(res.headers.ratelimit).toBe('"read-5-per-1h";r=4;t=720');
    const seen = JSON.parse(res.body);
    expect(seen.method).toBe("GET");
    expect(seen.url).toBe("/items/7?expand=owner&x=%2F");
    expect(seen.headers).toMatchObject({
      "ratekeeper-customer-id": String(customer.id),
      "ratekeeper-plan": "gw",
      "x-trace": "abc",
      "x-forwarded-for": "127.0.0.1",
    });
    for (const name of ["authorization", "cookie", "x-hop", "x-ratekeeper-client-address"]) {
      expect(seen.headers[name]).toBeUndefined();
    }
    expect(upstream?.seen).toHaveLength(1);
  });

  it("maps /gw and /gw?q to the upstream's root, under its base path", async () => {
    const gw = await start(undefined, { path: "/v2" });
    const seenUrl = async (url: string) =>
      (await (await fetch(url, { headers: auth() })).json()).url;
    expect(await seenUrl(gw)).toBe("/v2/");
    expect(await seenUrl(`${gw}?page=2`)).toBe("/v2/?page=2");
    expect(await seenUrl(`${gw}/orders`)).toBe("/v2/orders");
  });

  it("passes bodies, statuses and the upstream's fields through both ways", async () => {
    const gw = await start((_req, res, seen) => {
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res.writeHead(seen.method === "DELETE" ? 204 : 201, "Made", {
        "content-type": "text/plain",
        "x-upstream": "yes",
        ratelimit: '"upstream-own";r=1',
      });
      res.end(seen.method === "DELETE" ? undefined : `got ${seen.method} ${seen.body}`);
    });
    const res = await fetch(`${gw}/orders`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: '{"sku":"A-1"}',
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe("Made");
    expect(await res.text()).toBe('got POST {"sku":"A-1"}');
    expect(res.headers.get("x-upstream")).toBe("yes");
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    // The customer's fields replace any the upstream set.
    expect(res.headers.get("ratelimit")).toBe('"write-3-per-1h";r=2;t=1200');
    expect(upstream?.seen[0]?.headers["content-type"]).toBe("application/json");
    const deleted = await fetch(`${gw}/orders/1`, { method: "DELETE", headers: auth() });
    expect(deleted.status).toBe(204);
    const head = await fetch(`${gw}/orders`, { method: "HEAD", headers: auth() });
    expect(head.status).toBe(201);
    expect(head.headers.get("ratelimit")).toBe('"read-5-per-1h";r=4;t=720');
    expect(remaining("write")).toBe(1);
    expect(remaining("read")).toBe(4);
  });

  it("admits exactly the plan's limit, and only admitted requests reach the upstream", async () => {
    const gw = await start();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => fetch(`${gw}/items`, { headers: auth() })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    const refused = answers.find((r) => r.status === 429) as Response;
    expect(refused.headers.get("retry-after")).toBe("720");
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({
      type: QUOTA_EXCEEDED,
      status: 429,
      "violated-policies": ["read-5-per-1h"],
    });
    expect(upstream?.started()).toBe(5);
    expect(t.runtime.traffic.totals(t.clock.now(), 60).get(customer.id)).toEqual({
      allowed: 5,
      denied: 7,
    });
    // The usage rollups count the gateway's decisions as they do the routes'.
    await t.runtime.usage.flush();
    const hour = Math.floor(t.clock.now() / 3_600_000) * 3_600_000;
    const counted = report(t.runtime, hour, hour + 3_600_000, "hour", { customerId: customer.id });
    expect(totalsOf(counted)).toMatchObject({ allowed: 5, denied: 7, unavailable: 0 });
  });

  it("refuses a missing or unknown key (401) and a suspended customer (403) before the upstream", async () => {
    const gw = await start();
    const missing = await fetch(`${gw}/items`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="ratekeeper"');
    expect((await fetch(`${gw}/items`, { headers: auth("rk_nobody") })).status).toBe(401);
    t.suspend(customer.id);
    const suspended = await fetch(`${gw}/items`, { headers: auth() });
    expect(suspended.status).toBe(403);
    expect(await suspended.json()).toMatchObject({ title: "Customer suspended" });
    expect(upstream?.started()).toBe(0);
    expect(remaining("read")).toBe(5);
  });

  // Regression: `Authorization: <key>` was answered "Missing API key".
  it("answers a key sent without the Bearer scheme with a 401 saying to use it", async () => {
    const gw = await start();
    for (const authorization of [customer.key, `Basic ${customer.key}`]) {
      const res = await fetch(`${gw}/items`, { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="ratekeeper"');
      expect(await res.json()).toEqual({
        type: "about:blank",
        title: "Use the Bearer scheme",
        status: 401,
        detail:
          'Send Authorization: Bearer <key>: the Authorization field must start with "Bearer " before the API key.',
      });
    }
    expect(upstream?.started()).toBe(0);
    expect(remaining("read")).toBe(5);
  });

  it("streams the upstream's answer as it comes", async () => {
    let finish: () => void = () => {};
    const gw = await start((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first part;");
      finish = () => res.end("second part");
    });
    const body = await new Promise<string>((resolve, reject) => {
      const req = http.get(`${gw}/feed`, { headers: auth() }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          // The first part arrived while the upstream still holds the rest.
          if (text === "first part;") finish();
        });
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
    });
    expect(body).toBe("first part;second part");
  });

  it("streams the request's body to the upstream as it comes", async () => {
    let firstArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    const gw = await start(
      (req, res) => {
        let received = "";
        req.setEncoding("utf8");
        req.on("data", (chunk: string) => {
          received += chunk;
          if (received === "part one;") firstArrived();
        });
        req.on("end", () => res.end(`received ${received}`));
      },
      { streaming: true },
    );
    const answer = new Promise<string>((resolve, reject) => {
      const req = http.request(`${gw}/upload`, { method: "PUT", headers: auth() }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve(`${res.statusCode} ${text}`));
      });
      req.on("error", reject);
      req.write("part one;");
      // The rest goes only once the upstream has the first part: no buffering in between.
      void arrived.then(() => req.end("part two"));
    });
    expect(await answer).toBe("200 received part one;part two");
  });

  it("answers 502 when the upstream cannot be reached; the token is spent", async () => {
    const gw = await start();
    await upstream?.close();
    upstream = undefined;
    const res = await fetch(`${gw}/items`, { headers: auth() });
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("ratelimit")).toBe('"read-5-per-1h";r=4;t=720');
    expect(await res.json()).toMatchObject({ status: 502, title: "Upstream unreachable" });
    expect(remaining("read")).toBe(4);
  });

  it("answers 504 after GATEWAY_TIMEOUT_MS when the upstream is slow; the token is spent", async () => {
    const held: http.ServerResponse[] = [];
    const gw = await start((_req, res) => void held.push(res), { timeoutMs: 80 });
    const res = await fetch(`${gw}/slow`, { headers: auth() });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({
      status: 504,
      title: "Upstream timed out",
      detail: "The upstream did not answer within 80 ms.",
    });
    expect(held).toHaveLength(1);
    expect(remaining("read")).toBe(4);
  });

  it("refuses a body over GATEWAY_MAX_BODY with 413, without reaching the upstream or taking a token", async () => {
    const gw = await start(undefined, { maxBodyBytes: 1_000 });
    const res = await fetch(`${gw}/upload`, {
      method: "POST",
      headers: auth(),
      body: "x".repeat(1_001),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("ratelimit")).toBe('"write-3-per-1h";r=3;t=0');
    expect(await res.json()).toMatchObject({ status: 413, detail: "Send at most 1,000 bytes." });
    expect(upstream?.started()).toBe(0);
    expect(remaining("write")).toBe(3);
    // At the limit, it goes through.
    const ok = await fetch(`${gw}/upload`, {
      method: "POST",
      headers: auth(),
      body: "x".repeat(1_000),
    });
    expect(ok.status).toBe(200);
    expect(upstream?.seen[0]?.body).toHaveLength(1_000);
  });

  it("cuts a chunked body that outgrows GATEWAY_MAX_BODY: 413, the upstream never gets it whole", async () => {
    const gw = await start(undefined, { maxBodyBytes: 1_000 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${gw}/upload`, { method: "POST", headers: auth() }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write("y".repeat(600));
      req.write("y".repeat(600));
      req.end();
    });
    expect(status).toBe(413);
    expect(upstream?.seen).toHaveLength(0);
  });

  it("refuses paths with dot segments, plain or encoded, and broken percent-encoding", async () => {
    await start();
    // fetch would resolve dot segments itself: send the raw paths.
    const paths = [
      "/gw/../admin",
      "/gw/a/./b",
      "/gw/%2e%2e/etc",
      "/gw/%2E./x",
      "/gw/..",
      "/gw/%E0%A4%A",
    ];
    for (const path of paths) {
      expect((await raw(path, auth())).status, path).toBe(400);
    }
    expect(upstream?.started()).toBe(0);
    expect(remaining("read")).toBe(5);
  });

  it("answers 404 under /gw when no upstream is configured", async () => {
    server = await startDataPlane(t.runtime);
    const res = await fetch(`${server.url}/gw/items`, { headers: auth() });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ title: "Gateway not configured" });
    expect(remaining("read")).toBe(5);
  });
});
