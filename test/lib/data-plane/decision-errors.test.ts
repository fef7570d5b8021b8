import http from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { revokeServiceToken } from "@/lib/admin/service-tokens";
import { COST_RULE, MAX_COST } from "@/lib/schemas/cost.schema";
import { CLASS_NAME_RULE } from "@/lib/schemas/operation-class.schema";
import { problemSchema } from "@/lib/schemas/problem.schema";
import { parsedAs } from "../../support/answer-schema";
import {
  type DataPlaneServer,
  postJson,
  serviceToken,
  startDataPlane,
} from "../../support/data-plane";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

/** NO_CLASS is the error of a decision that names no operation class. */
const NO_CLASS = "operation must be the name of a class, such as read or write";

/** chunkedPost sends `bytes` of body in chunks, without Content-Length, and reads the answer. */
function chunkedPost(
  url: string,
  token: string,
  bytes: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // The server may close once it has refused: the answer is what counts.
    req.on("error", reject);
    const chunk = `{"key":"${"x".repeat(1_000)}`;
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("the decision API refuses bad calls with problems, consuming nothing", () => {
  let t: TestRuntime;
  let server: DataPlaneServer;
  let token: string;
  const url = () => `${server.url}/api/v1/decisions`;
  const batchUrl = () => `${server.url}/api/v1/decisions/batch`;

  beforeEach(async () => {
    t = createTestRuntime();
    server = await startDataPlane(t.runtime);
    token = serviceToken(t.runtime).token;
  });
  afterEach(async () => {
    // Whatever was refused, the demo customer's buckets are full and no decision was recorded.
    const customer = t.runtime.policy.snapshot.byId.get(t.demoId);
    if (!customer) throw new Error("no demo customer");
    const now = t.clock.now();
    expect(t.runtime.limiter.peekWithDetails({ customer, operation: "read", now })).toMatchObject({
      tokensRemaining: 5,
    });
    expect(t.runtime.limiter.peekWithDetails({ customer, operation: "write", now })).toMatchObject({
      tokensRemaining: 1,
    });
    expect(t.runtime.traffic.totals(now, 300).get(t.demoId)).toBeUndefined();
    await server.close();
    t.cleanup();
  });

  async function expectProblem(res: Response, status: number, title: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.json();
    expect(body).toMatchObject({ type: "about:blank", title, status });
    return parsedAs(body, problemSchema);
  }

  const valid = () => ({ key: t.demoKey, operation: "read" });

  it("401 without a token, with WWW-Authenticate", async () => {
    const res = await postJson(url(), valid());
    await expectProblem(res, 401, "Missing service token");
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="ratekeeper"');
    await expectProblem(
      await postJson(url(), valid(), undefined, { authorization: "Bearer" }),
      401,
      "Missing service token",
    );
  });

  // Regression: a token sent without "Bearer " was answered "Missing service token".
  it("401 saying to use the Bearer scheme for a token sent without it, or another scheme", async () => {
    for (const authorization of [token, `Basic ${token}`, `Token ${token}`]) {
      const res = await postJson(url(), valid(), undefined, { authorization });
      const body = await expectProblem(res, 401, "Use the Bearer scheme");
      expect(body.detail).toBe(
        'Send Authorization: Bearer <service token>: the Authorization field must start with "Bearer " before the service token.',
      );
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="ratekeeper"');
    }
    const twice = await postJson(url(), valid(), undefined, {
      authorization: `Bearer ${token} ${token}`,
    });
    await expectProblem(twice, 401, "Malformed Authorization field");
  });

  it("401 for an unknown token, and for a customer's key sent as the token", async () => {
    await expectProblem(
      await postJson(url(), valid(), `rks_${"A".repeat(32)}`),
      401,
      "Unknown service token",
    );
    const res = await postJson(url(), valid(), t.demoKey);
    const body = await expectProblem(res, 401, "Unknown service token");
    expect(body.detail).toContain("body's key field");
    await expectProblem(
      await postJson(batchUrl(), { decisions: [valid()] }, "rks_x"),
      401,
      "Unknown service token",
    );
  });

  // Regression: a revoked token was answered "Unknown service token", so its service could not
  // tell a revocation from a typo.
  it("401 saying the token was revoked, naming it, from the very next call", async () => {
    const revoked = serviceToken(t.runtime, ["decide"], "to revoke");
    const before = await postJson(url(), { key: "rk_nobody", operation: "read" }, revoked.token);
    expect(before.status).toBe(200);
    expect(revokeServiceToken(t.runtime, "admin", revoked.id).ok).toBe(true);
    const body = await expectProblem(
      await postJson(url(), valid(), revoked.token),
      401,
      "Revoked service token",
    );
    expect(body.detail).toBe(
      'The service token "to revoke" was revoked; create a new one under Service tokens.',
    );
  });

  it("403 for a peek-only token that would take tokens; it may peek", async () => {
    const peeker = serviceToken(t.runtime, ["peek"], "peeker").token;
    const body = await expectProblem(
      await postJson(url(), valid(), peeker),
      403,
      "Service token lacks the decide scope",
    );
    expect(body.detail).toContain('"peek": true');
    await expectProblem(
      await postJson(batchUrl(), { decisions: [{ ...valid(), peek: true }, valid()] }, peeker),
      403,
      "Service token lacks the decide scope",
    );
    const peeked = await postJson(url(), { ...valid(), peek: true }, peeker);
    expect(peeked.status).toBe(200);
    expect(await peeked.json()).toMatchObject({ allowed: true, remaining: 5 });
  });

  it.each([
    ["not JSON", "{key:", { "": ["Body must be valid JSON"] }],
    ["an empty body", "", { "": ["Body must be valid JSON"] }],
    ["an array", "[]", { "": ["Send a JSON object"] }],
    ["null", "null", { "": ["Send a JSON object"] }],
    [
      "neither key nor customerId",
      { operation: "read" },
      { "": ["Send the customer's key or its customerId"] },
    ],
    [
      "both key and customerId",
      { key: "rk_a", customerId: 1, operation: "read" },
      { "": ["Send key or customerId, not both"] },
    ],
    ["no operation", { key: "rk_a" }, { operation: [NO_CLASS] }],
    // Regression: `{}` named only `operation`; the missing customer came on the next try.
    [
      "an empty object",
      {},
      {
        operation: [NO_CLASS],
        "": ["Send the customer's key or its customerId"],
      },
    ],
    [
      "every bad field at once",
      { key: "", customerId: 1, operation: "x", cost: 0 },
      {
        key: ["key must not be empty"],
        operation: ['Unknown class "x": use one of read, write.'],
        cost: [COST_RULE],
        "": ["Send key or customerId, not both"],
      },
    ],
    [
      "an unknown operation",
      { key: "rk_a", operation: "delete" },
      { operation: ['Unknown class "delete": use one of read, write.'] },
    ],
    [
      "an operation that no class can be named",
      { key: "rk_a", operation: "Read" },
      { operation: [CLASS_NAME_RULE] },
    ],
    // The one cost rule (lib/schemas/cost.schema.ts), in the same words as every other surface.
    ["cost 0", { key: "rk_a", operation: "read", cost: 0 }, { cost: [COST_RULE] }],
    ["a negative cost", { key: "rk_a", operation: "read", cost: -3 }, { cost: [COST_RULE] }],
    ["a fractional cost", { key: "rk_a", operation: "read", cost: 1.5 }, { cost: [COST_RULE] }],
    ["a cost as a string", { key: "rk_a", operation: "read", cost: "2" }, { cost: [COST_RULE] }],
    ["an unsafe cost", { key: "rk_a", operation: "read", cost: 2 ** 60 }, { cost: [COST_RULE] }],
    // Regression: 1e12 was answered 413 and counted as 1,000,000,000,000 tokens requested.
    ["a cost of 1e12", { key: "rk_a", operation: "read", cost: 1e12 }, { cost: [COST_RULE] }],
    [
      "a cost one over the ceiling",
      { key: "rk_a", operation: "read", cost: MAX_COST + 1 },
      { cost: [COST_RULE] },
    ],
    [
      "peek as a string",
      { key: "rk_a", operation: "read", peek: "yes" },
      { peek: ["peek must be true or false"] },
    ],
    ["an empty key", { key: "", operation: "read" }, { key: ["key must not be empty"] }],
    ["a key as a number", { key: 7, operation: "read" }, { key: ["key must be a string"] }],
    [
      "customerId 0",
      { customerId: 0, operation: "read" },
      { customerId: ["customerId must be positive"] },
    ],
    [
      "an unknown field",
      { ...{ key: "rk_a", operation: "read" }, tenant: "x" },
      { tenant: ["Unknown field"] },
    ],
  ])("400 for %s, with errors by field", async (_name, body, errors) => {
    const res = await postJson(url(), body, token);
    const problem = await expectProblem(res, 400, "Invalid request");
    expect(problem.errors).toEqual(errors);
  });

  // Regression: the last of the two keys won, so this call was admitted and took a write token.
  it("400 for a key given twice, naming it, taking nothing", async () => {
    const body = `{"key":${JSON.stringify(t.demoKey)},"operation":"read","operation":"write"}`;
    const problem = await expectProblem(await postJson(url(), body, token), 400, "Invalid request");
    expect(problem.errors).toEqual({ operation: ["Given more than once"] });
    // The same key spelled with an escape is the same key.
    const escaped = `{"key":${JSON.stringify(t.demoKey)},"operation":"write","\\u006fperation":"write"}`;
    const again = await expectProblem(
      await postJson(url(), escaped, token),
      400,
      "Invalid request",
    );
    expect(again.errors).toEqual({ operation: ["Given more than once"] });
    const item = `{"key":${JSON.stringify(t.demoKey)},"operation":"read"}`;
    const batch = `{"decisions":[${item},${item},${item},{"key":${JSON.stringify(t.demoKey)},"operation":"read","operation":"write"}]}`;
    const refused = await expectProblem(
      await postJson(batchUrl(), batch, token),
      400,
      "Invalid request",
    );
    expect(refused.errors).toEqual({ "decisions.3.operation": ["Given more than once"] });
  });

  it("400 for a bad batch, by item path, deciding none of it", async () => {
    const cases: [unknown, Record<string, string[]>][] = [
      [{ decisions: [] }, { decisions: ["Send at least one decision"] }],
      [{}, { decisions: ["decisions must be a list"] }],
      [{ decisions: "all" }, { decisions: ["decisions must be a list"] }],
      [
        { decisions: Array.from({ length: 1_001 }, () => valid()) },
        { decisions: ["Send at most 1000 decisions"] },
      ],
      [
        { decisions: [valid(), valid(), valid(), { ...valid(), cost: 0 }] },
        { "decisions.3.cost": [COST_RULE] },
      ],
      [
        { decisions: [valid(), { key: "a", customerId: 2, operation: "read" }] },
        { "decisions.1": ["Send key or customerId, not both"] },
      ],
      [{ decisions: [valid()], extra: true }, { extra: ["Unknown field"] }],
    ];
    for (const [body, errors] of cases) {
      const problem = await expectProblem(
        await postJson(batchUrl(), body, token),
        400,
        "Invalid request",
      );
      expect(problem.errors).toEqual(errors);
    }
  });

  it("413 for a body over 64 KiB, declared or not, and a batch over 1 MiB", async () => {
    const big = { ...valid(), key: "k".repeat(70_000) };
    const declared = await postJson(url(), big, token);
    await expectProblem(declared, 413, "Body too large");
    expect(declared.headers.get("connection")).toBe("close");
    const chunked = await chunkedPost(url(), token, 80_000);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ status: 413, title: "Body too large" });
    const bigBatch = {
      decisions: Array.from({ length: 1_000 }, () => ({ ...valid(), key: "k".repeat(1_100) })),
    };
    await expectProblem(await postJson(batchUrl(), bigBatch, token), 413, "Body too large");
  });

  it("415 for a body that is not application/json", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonx"]) {
      const res = await postJson(url(), valid(), token, { "content-type": type });
      await expectProblem(res, 415, "Unsupported media type");
    }
    const none = await fetch(url(), {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: new Blob([JSON.stringify(valid())]),
    });
    await expectProblem(none, 415, "Unsupported media type");
    // A charset is fine.
    const charset = await postJson(url(), { key: "rk_nobody", operation: "read" }, token, {
      "content-type": "application/json; charset=utf-8",
    });
    expect(charset.status).toBe(200);
  });

  // Regression: `charset=latin1` was admitted, and its body read as UTF-8 all the same.
  it("415 for JSON in a charset other than UTF-8, saying to send UTF-8", async () => {
    for (const type of [
      "application/json; charset=latin1",
      "application/json;charset=ISO-8859-1",
      'application/json; charset="utf-16"',
    ]) {
      const res = await postJson(url(), valid(), token, { "content-type": type });
      const body = await expectProblem(res, 415, "Unsupported media type");
      expect(body.detail, type).toBe(
        "Send the body in UTF-8: Content-Type: application/json, with no charset or charset=utf-8.",
      );
    }
    for (const type of ["application/json;charset=UTF-8", 'application/json; charset="utf-8"']) {
      const res = await postJson(url(), { key: "rk_nobody", operation: "read" }, token, {
        "content-type": type,
      });
      expect(res.status, type).toBe(200);
    }
  });

  it("405 for other methods, with Allow", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const res = await fetch(url(), { method, headers: { authorization: `Bearer ${token}` } });
      await expectProblem(res, 405, "Method not allowed");
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  it("answers a failure of its own with a 500 problem that tells nothing of it", async () => {
    const broken = new Proxy(t.runtime, {
      get(target, property, receiver) {
        if (property === "policy") throw new Error("secret: /var/lib/ratekeeper.db");
        return Reflect.get(target, property, receiver);
      },
    });
    const other = await startDataPlane(broken, {
      gateway: { upstream: new URL("http://127.0.0.1:9"), timeoutMs: 1_000, maxBodyBytes: 10 },
    });
    try {
      const res = await postJson(`${other.url}/api/v1/decisions`, valid(), token);
      const body = await expectProblem(res, 500, "Internal error");
      expect(JSON.stringify(body)).not.toContain("secret");
      const gw = await fetch(`${other.url}/gw/x`, { headers: { authorization: "Bearer rk_x" } });
      expect(await expectProblem(gw, 500, "Internal error")).not.toHaveProperty("stack");
    } finally {
      await other.close();
    }
  });

  it("leaves every other path to the app behind it", async () => {
    for (const path of ["/api/v1/decisionsx", "/api/v1/decisions/other", "/gwx", "/api/v1/items"]) {
      expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    }
    expect(server.fallbackHits()).toBe(4);
    // Query strings do not change the route.
    const queried = await postJson(
      `${url()}?trace=1`,
      { key: "rk_nobody", operation: "read" },
      token,
    );
    expect(queried.status).toBe(200);
  });
});
