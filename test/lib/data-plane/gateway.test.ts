import http from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { gatewayStartLine } from "@/lib/data-plane/data-plane";
import type { GatewayConfig } from "@/lib/data-plane/gateway";
import { bodiless } from "@/lib/data-plane/gateway-forward";
import { forwardedFields } from "@/lib/data-plane/gateway-headers";
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
        trustProxy: config.trustProxy ?? 0,
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

  /** upstreamErrors reads ratekeeper_gateway_upstream_errors_total by kind, as /api/metrics serves it. */
  async function upstreamErrors(): Promise<Record<string, number>> {
    const text = await (await metricsRoute()).text();
    const counts: Record<string, number> = {};
    for (const m of text.matchAll(
      /^ratekeeper_gateway_upstream_errors_total\{kind="(\w+)"\} (\d+)$/gm,
    )) {
      counts[m[1] as string] = Number(m[2]);
    }
    return counts;
  }

  const failureLines = () => t.lines.filter((line) => line.startsWith("Gateway: upstream"));

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

  it("forwards requests without a body at once, and an empty body as empty", async () => {
    const gw = await start((_req, res, seen) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`${seen.method} [${seen.body}] ${seen.headers["content-length"] ?? "none"}`);
    });
    const got = await fetch(`${gw}/items`, { headers: auth() });
    expect(await got.text()).toBe("GET [] none");
    const posted = await fetch(`${gw}/items`, { method: "POST", headers: auth(), body: "" });
    expect(await posted.text()).toBe("POST [] 0");
    const chunked = await fetch(`${gw}/items`, {
      method: "POST",
      headers: auth(),
      body: new Blob(["a", "b"]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(await chunked.text()).toBe("POST [ab] none");
    expect(bodiless({ headers: {} } as http.IncomingMessage)).toBe(true);
    expect(bodiless({ headers: { "content-length": "0" } } as http.IncomingMessage)).toBe(true);
    expect(bodiless({ headers: { "content-length": "2" } } as http.IncomingMessage)).toBe(false);
    expect(bodiless({ headers: { "transfer-encoding": "chunked" } } as http.IncomingMessage)).toBe(
      false,
    );
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

  // Regression: X-Forwarded-For replaced the incoming chain even behind a trusted proxy, and
  // X-Forwarded-Proto was always http.
  it("appends the peer to X-Forwarded-For behind a trusted proxy and keeps its Proto and Host", async () => {
    await start(undefined, { trustProxy: 1 });
    const res = await raw("/gw/items", {
      ...auth(),
      host: "gateway.internal:3000",
      "x-forwarded-for": "203.0.113.9, 198.51.100.4",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "api.example.com",
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).headers).toMatchObject({
      "x-forwarded-for": "203.0.113.9, 198.51.100.4, 127.0.0.1",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "api.example.com",
    });
  });

  it("sets X-Forwarded-* from the connection when no proxy is trusted, whatever a client claims", async () => {
    await start();
    const res = await raw("/gw/items", {
      ...auth(),
      host: "gateway.internal:3000",
      "x-forwarded-for": "6.6.6.6",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "evil.example",
    });
    expect(JSON.parse(res.body).headers).toMatchObject({
      "x-forwarded-for": "127.0.0.1",
      "x-forwarded-proto": "http",
      "x-forwarded-host": "gateway.internal:3000",
    });
  });

  // Regression: with no trusted proxy, a client's `X-Real-IP: 6.6.6.6` reached the upstream as
  // sent, so an upstream reading it could be told any address.
  it("forwards no client-address claim a client sends, and sets X-Real-IP to the connecting address", async () => {
    await start();
    const claims = {
      "x-real-ip": "6.6.6.6",
      "true-client-ip": "6.6.6.7",
      "cf-connecting-ip": "6.6.6.8",
      "x-client-ip": "6.6.6.9",
      "x-cluster-client-ip": "6.6.6.10",
      "fastly-client-ip": "6.6.6.11",
      forwarded: "for=6.6.6.12;proto=https",
    };
    const res = await raw("/gw/items", { ...auth(), ...claims });
    expect(res.status).toBe(200);
    const seen = JSON.parse(res.body).headers as Record<string, string>;
    expect(seen["x-real-ip"]).toBe("127.0.0.1");
    for (const name of Object.keys(claims).filter((n) => n !== "x-real-ip")) {
      expect(seen[name], name).toBeUndefined();
    }
    expect(JSON.stringify(seen)).not.toMatch(/6\.6\.6\./);
  });

  it("sets X-Real-IP behind a trusted proxy to the address it saw, replacing one a client sent through it", async () => {
    await start(undefined, { trustProxy: 1 });
    const res = await raw("/gw/items", {
      ...auth(),
      "x-forwarded-for": "6.6.6.6, 203.0.113.9",
      "x-real-ip": "6.6.6.6",
      "cf-connecting-ip": "6.6.6.6",
    });
    const seen = JSON.parse(res.body).headers as Record<string, string>;
    expect(seen["x-real-ip"]).toBe("203.0.113.9");
    expect(seen["cf-connecting-ip"]).toBeUndefined();
    expect(seen["x-forwarded-for"]).toBe("6.6.6.6, 203.0.113.9, 127.0.0.1");
  });

  it("writes X-Forwarded-Proto from a TLS connection, and only http or https from a proxy", () => {
    const hop = { peer: "10.0.0.2", encrypted: true, trustProxy: 0 };
    expect(forwardedFields({ host: "a.example" }, hop)).toEqual({
      "x-forwarded-for": "10.0.0.2",
      "x-real-ip": "10.0.0.2",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "a.example",
    });
    const behind = { peer: "10.0.0.2", encrypted: false, trustProxy: 1 };
    expect(forwardedFields({ "x-forwarded-proto": "HTTPS" }, behind)["x-forwarded-proto"]).toBe(
      "https",
    );
    expect(forwardedFields({ "x-forwarded-proto": "gopher" }, behind)["x-forwarded-proto"]).toBe(
      "http",
    );
    // Two trusted proxies: the outer one's Proto, not a client's claim further left.
    const two = { peer: "10.0.0.2", encrypted: false, trustProxy: 2 };
    expect(
      forwardedFields(
        { "x-forwarded-proto": "http, https, http", "x-forwarded-for": ["1.1.1.1", "2.2.2.2"] },
        two,
      ),
    ).toEqual({
      "x-forwarded-for": "1.1.1.1, 2.2.2.2, 10.0.0.2",
      "x-real-ip": "1.1.1.1",
      "x-forwarded-proto": "https",
    });
  });

  it("exports every kind of upstream error from the start, at 0", async () => {
    await start();
    expect(await upstreamErrors()).toEqual({
      connect: 0,
      timeout: 0,
      reset: 0,
      tls: 0,
      protocol: 0,
      other: 0,
    });
  });

  // Regression: a 502 or a 504 left no log line and no metric.
  it("logs one line and counts kind=connect for each request to an upstream it cannot reach", async () => {
    const gw = await start();
    const port = upstream?.port;
    await upstream?.close();
    upstream = undefined;
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${gw}/items?secret=1`, { headers: auth() })).status).toBe(502);
    }
    expect(await upstreamErrors()).toMatchObject({ connect: 2, timeout: 0, reset: 0 });
    expect(failureLines()).toEqual([
      `Gateway: upstream connect error (ECONNREFUSED) on GET http://127.0.0.1:${port}/items for customer ${customer.id}; answered 502.`,
      `Gateway: upstream connect error (ECONNREFUSED) on GET http://127.0.0.1:${port}/items for customer ${customer.id}; answered 502.`,
    ]);
  });

  it("logs and counts kind=timeout for an upstream that does not answer in time", async () => {
    const held: http.ServerResponse[] = [];
    const gw = await start((_req, res) => void held.push(res), { timeoutMs: 80 });
    expect((await fetch(`${gw}/slow`, { headers: auth() })).status).toBe(504);
    expect(await upstreamErrors()).toMatchObject({ timeout: 1, connect: 0 });
    expect(failureLines()).toEqual([
      expect.stringMatching(
        /^Gateway: upstream timeout error \(no answer within 80 ms\) on GET .*\/slow .*; answered 504\.$/,
      ),
    ]);
  });

  it("logs and counts kind=reset for an upstream that cuts the connection, before or during its answer", async () => {
    const gw = await start((req, res) => {
      if (req.url === "/cut-early") req.socket.destroy();
      else {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("half an answer");
        setImmediate(() => req.socket.destroy());
      }
    });
    expect((await fetch(`${gw}/cut-early`, { headers: auth() })).status).toBe(502);
    const cut = await new Promise<string>((resolve) => {
      const req = http.request(`${gw}/cut-late`, { headers: auth() }, (res) => {
        res.on("data", () => {});
        res.on("error", () => resolve("cut"));
        res.on("end", () => resolve("ended"));
      });
      req.on("error", () => resolve("cut"));
      req.end();
    });
    expect(cut).toBe("cut");
    await vi.waitFor(async () => expect(await upstreamErrors()).toMatchObject({ reset: 2 }));
    expect(failureLines()).toEqual([
      expect.stringMatching(
        /^Gateway: upstream reset error \(ECONNRESET\) on GET .*\/cut-early .*; answered 502\.$/,
      ),
      expect.stringMatching(
        /^Gateway: upstream reset error \(.+\) on GET .*\/cut-late .*; the answer was cut\.$/,
      ),
    ]);
  });

  it("counts nothing when the client is the one who goes away", async () => {
    let closed: () => void = () => {};
    const upstreamSawClose = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const gw = await start((req) => req.socket.once("close", () => closed()));
    const controller = new AbortController();
    const asked = fetch(`${gw}/slow`, { headers: auth(), signal: controller.signal });
    await vi.waitFor(() => expect(upstream?.started()).toBe(1));
    controller.abort();
    await expect(asked).rejects.toThrow();
    await upstreamSawClose;
    expect(await upstreamErrors()).toMatchObject({ connect: 0, timeout: 0, reset: 0, other: 0 });
    expect(failureLines()).toEqual([]);
  });

  // Regression: nothing said at start that the gateway was on, nor where it forwards.
  it("says once at start that the gateway is on and where it forwards, with no credentials", async () => {
    await start(undefined, { path: "/v2" });
    expect(t.lines.filter((line) => line.startsWith("Gateway on"))).toEqual([
      `Gateway on: /gw/* forwards admitted requests to ${upstream?.url}/v2 (timeout 5000 ms, bodies up to 10,485,760 bytes, no proxy trusted).`,
    ]);
    const line = gatewayStartLine({
      upstream: new URL("https://svc:s3cret@api.internal:8443/base/"),
      timeoutMs: 30_000,
      maxBodyBytes: 1,
      trustProxy: 1,
    });
    expect(line).toBe(
      "Gateway on: /gw/* forwards admitted requests to https://api.internal:8443/base (timeout 30000 ms, bodies up to 1 byte, 1 proxy trusted).",
    );
  });

  it("says nothing of a gateway when none is configured", async () => {
    server = await startDataPlane(t.runtime);
    expect(t.lines.filter((line) => line.startsWith("Gateway"))).toEqual([]);
  });
});
