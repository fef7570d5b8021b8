import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isJsonType } from "../../fuzz/http-parts";
import { type DataPlaneServer, serviceToken, startDataPlane } from "../../support/data-plane";
import { referenceRepeatedKeys } from "../../support/json-reference";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { startUpstream, type Upstream } from "../../support/upstream";

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) {
  return new Promise<Reply>((resolve, reject) => {
    const req = http.request(`${base}`, { method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const safeText = fc.string({ unit: fc.constantFrom(...'abcXYZ019 -_.:;/="{}[],'), maxLength: 40 });

describe("the data plane under arbitrary input", () => {
  let t: TestRuntime;
  let upstream: Upstream;
  let server: DataPlaneServer;
  let decideToken: string;
  let peekToken: string;
  beforeAll(async () => {
    t = createTestRuntime();
    upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { "x-from-upstream": "1" });
      res.end("ok");
    });
    server = await startDataPlane(t.runtime, {
      gateway: {
        upstream: new URL(upstream.url),
        timeoutMs: 5_000,
        maxBodyBytes: 2_000,
        // Behind a trusted proxy the gateway reads the X-Forwarded-* fields a client may forge.
        trustProxy: 1,
      },
    });
    decideToken = serviceToken(t.runtime, ["decide"]).token;
    peekToken = serviceToken(t.runtime, ["peek"], "peeker").token;
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
    t.cleanup();
  });

  it("never answers 5xx, answers every 4xx with a problem, and forwards only admitted requests", async () => {
    let forwarded = 0;
    let described = 0;
    const statuses = new Map<number, number>();
    const decisionBody = fc.record(
      {
        key: fc.oneof(fc.constant(t.demoKey), safeText, fc.integer()),
        customerId: fc.oneof(fc.constant(t.demoId), fc.integer(), fc.double(), safeText),
        operation: fc.oneof(fc.constantFrom("read", "write"), safeText),
        cost: fc.oneof(
          fc.integer({ min: -3, max: 8 }),
          fc.double(),
          fc.constant(2 ** 60),
          safeText,
        ),
        peek: fc.oneof(fc.boolean(), safeText),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const validDecision = fc.record(
      {
        key: fc.constantFrom(t.demoKey, "rk_unknown"),
        operation: fc.constantFrom("read", "write"),
        cost: fc.integer({ min: 1, max: 6 }),
        peek: fc.boolean(),
      },
      { requiredKeys: ["key", "operation"] },
    );
    const anyDecision = fc.oneof(
      { arbitrary: validDecision, weight: 3 },
      { arbitrary: decisionBody, weight: 2 },
    );
    const body = fc.oneof(
      { arbitrary: anyDecision.map((b) => JSON.stringify(b)), weight: 4 },
      {
        arbitrary: fc
          .array(anyDecision, { maxLength: 5 })
          .map((decisions) => JSON.stringify({ decisions })),
        weight: 2,
      },
      { arbitrary: fc.json(), weight: 1 },
      { arbitrary: safeText, weight: 1 },
      { arbitrary: fc.constant("x".repeat(3_000)), weight: 1 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    );
    const request = fc.record({
      method: fc.oneof(
        { arbitrary: fc.constant("POST"), weight: 4 },
        {
          arbitrary: fc.constantFrom("GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"),
          weight: 2,
        },
      ),
      path: fc.oneof(
        fc.constantFrom(
          "/api/v1/decisions",
          "/api/v1/decisions/batch",
          "/api/v1/service-token",
          "/gw",
          "/gw/",
        ),
        safeText.map((s) => `/api/v1/service-token?${encodeURIComponent(s)}`),
        safeText.map((s) => `/gw/${encodeURIComponent(s)}`),
        safeText.map((s) => `/api/v1/decisions?${encodeURIComponent(s)}`),
        fc.constantFrom("/gw/../x", "/gw/%2e%2e/x", "/gw?x=1"),
      ),
      authorization: fc.oneof(
        { arbitrary: fc.constantFrom("decide", "peek", "customer"), weight: 6 },
        { arbitrary: fc.constant(undefined), weight: 1 },
        { arbitrary: safeText, weight: 1 },
      ),
      contentType: fc.oneof(
        { arbitrary: fc.constant("application/json"), weight: 4 },
        { arbitrary: fc.constant(undefined), weight: 1 },
        { arbitrary: fc.constantFrom("application/json; charset=utf-8", "text/plain"), weight: 1 },
        { arbitrary: safeText, weight: 1 },
      ),
      body,
      forwarded: fc.record(
        {
          "x-forwarded-for": fc.oneof(safeText, fc.constant("203.0.113.9, ::1, ,")),
          "x-forwarded-proto": fc.oneof(safeText, fc.constantFrom("https", "HTTP", "")),
          "x-forwarded-host": safeText,
        },
        { requiredKeys: [] },
      ),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = { ...r.forwarded };
        if (r.authorization === "decide") headers.authorization = `Bearer ${decideToken}`;
        else if (r.authorization === "peek") headers.authorization = `Bearer ${peekToken}`;
        else if (r.authorization === "customer") headers.authorization = `Bearer ${t.demoKey}`;
        else if (r.authorization !== undefined) headers.authorization = r.authorization;
        if (r.contentType !== undefined) headers["content-type"] = r.contentType;
        const sendsBody = r.body !== undefined && r.method !== "GET" && r.method !== "HEAD";
        // Node's client would send an OPTIONS or DELETE body with no length at all.
        if (sendsBody) headers["content-length"] = String(Buffer.byteLength(r.body as string));
        const reply = await send(
          server.url,
          r.method,
          r.path,
          headers,
          sendsBody ? r.body : undefined,
        );
        expect(reply.status, `${r.method} ${r.path}`).toBeLessThan(500);
        if (reply.headers["x-from-upstream"]) forwarded++;
        if (reply.status === 200 && reply.body.startsWith('{"serviceToken":')) described++;
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status >= 400 && r.method !== "HEAD") {
          expect(reply.headers["content-type"]).toBe("application/problem+json");
          const problem = JSON.parse(reply.body);
          expect(problem).toMatchObject({ status: reply.status });
          expect(typeof problem.type).toBe("string");
          expect(typeof problem.title).toBe("string");
        }
      }),
      { numRuns: 300, seed: 20_261_123 },
    );
    // Every request that reached the upstream was answered by it: none went by without a decision.
    expect(upstream.started()).toBe(forwarded);
    // The inputs reached every layer (with this seed): refusals, decisions, forwarded requests.
    for (const status of [200, 400, 401, 405, 413, 415, 429]) {
      expect(
        statuses.get(status) ?? 0,
        `answers ${status}: ${JSON.stringify([...statuses])}`,
      ).toBeGreaterThan(0);
    }
    expect(forwarded).toBeGreaterThan(0);
    expect(described, "GET /api/v1/service-token answered a token").toBeGreaterThan(0);
  });

  // Regression: a key given twice was read as its last value, and JSON declared in latin1 was
  // read as UTF-8: either was decided (and took a token) as something the caller did not say.
  it("decides only a body declared JSON in UTF-8 that gives each key once, single or batched", async () => {
    const decision = fc.record(
      {
        key: fc.constantFrom(t.demoKey, "rk_unknown"),
        operation: fc.constantFrom("read", "write"),
        cost: fc.integer({ min: 1, max: 3 }),
        peek: fc.boolean(),
      },
      { requiredKeys: ["key", "operation"] },
    );
    // An item as text, sometimes with its key or operation given again (maybe spelled with an
    // escape, with the same value or another).
    const item = fc.oneof(
      decision.map((d) => JSON.stringify(d)),
      fc
        .tuple(
          decision,
          fc.constantFrom("key", "operation", "\\u006bey", "\\u006fperation"),
          fc.constantFrom<unknown>("read", "write", 1, true, t.demoKey),
        )
        .map(
          ([d, key, value]) =>
            `${JSON.stringify(d).slice(0, -1)},"${key}":${JSON.stringify(value)}}`,
        ),
    );
    const call = fc.oneof(
      item.map((body) => ({ path: "/api/v1/decisions", body })),
      fc.array(item, { minLength: 1, maxLength: 4 }).map((items) => ({
        path: "/api/v1/decisions/batch",
        body: `{"decisions":[${items.join(",")}]}`,
      })),
    );
    const contentType = fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      'application/json;charset="UTF-8"',
      "application/json; charset=latin1",
      "application/json; charset=ISO-8859-1",
      'application/json; charset="utf-16"',
    );
    const seen = { decided: 0, repeated: 0, charset: 0 };
    await fc.assert(
      fc.asyncProperty(call, contentType, async ({ path, body }, type) => {
        const reply = await send(
          server.url,
          "POST",
          path,
          {
            authorization: `Bearer ${decideToken}`,
            "content-type": type,
            "content-length": String(Buffer.byteLength(body)),
          },
          body,
        );
        const repeated = referenceRepeatedKeys(body) ?? [];
        if (!isJsonType(type)) {
          expect(reply.status, type).toBe(415);
          seen.charset++;
        } else if (repeated.length > 0) {
          expect(reply.status, body).toBe(400);
          const given = Object.fromEntries(repeated.map((at) => [at, ["Given more than once"]]));
          expect(JSON.parse(reply.body).errors).toEqual(given);
          seen.repeated++;
        } else {
          expect(reply.status, body).toBe(200);
          seen.decided++;
        }
      }),
      { numRuns: 200, seed: 20_261_128 },
    );
    expect(
      Math.min(seen.decided, seen.repeated, seen.charset),
      JSON.stringify(seen),
    ).toBeGreaterThan(20);
  });
});
