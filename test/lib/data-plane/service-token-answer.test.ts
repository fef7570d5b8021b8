import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { revokeServiceToken } from "@/lib/admin/service-tokens";
import { type DataPlaneServer, serviceToken, startDataPlane } from "../../support/data-plane";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

describe("GET /api/v1/service-token", () => {
  let t: TestRuntime;
  let server: DataPlaneServer;
  const ask = (token?: string, method = "GET") =>
    fetch(`${server.url}/api/v1/service-token`, {
      method,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  beforeEach(async () => {
    t = createTestRuntime();
    server = await startDataPlane(t.runtime);
  });
  afterEach(async () => {
    await server.close();
    t.cleanup();
  });

  it("answers the calling token's id, name, prefix and scopes, on the data plane", async () => {
    const { id, token } = serviceToken(t.runtime, ["peek", "decide"], "orders-api");
    const res = await ask(token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      serviceToken: {
        id,
        name: "orders-api",
        prefix: token.slice(0, 12),
        scopes: ["decide", "peek"],
      },
    });
    expect(server.fallbackHits()).toBe(0);
    // Asking is a use of the token.
    expect(t.runtime.serviceTokenUsage.lastUsed(id)).toBe(t.clock.now());
  });

  it("answers a peek-only token too: any live token may describe itself", async () => {
    const { token } = serviceToken(t.runtime, ["peek"]);
    expect(await (await ask(token)).json()).toMatchObject({ serviceToken: { scopes: ["peek"] } });
  });

  it.each([
    ["no token", undefined, "Missing service token"],
    ["an unknown token", "rks_not-a-token-at-all", "Unknown service token"],
    ["a customer's key", "rk_customer", "Unknown service token"],
  ])("refuses %s with the decision API's 401 problem", async (_, token, title) => {
    const res = await ask(token);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="ratekeeper"');
    expect(await res.json()).toMatchObject({ type: "about:blank", title, status: 401 });
  });

  it("refuses a revoked token with 401, and does not count it as a refused decision call", async () => {
    const { id, token } = serviceToken(t.runtime);
    expect(revokeServiceToken(t.runtime, "admin", id).ok).toBe(true);
    const res = await ask(token);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ title: "Revoked service token" });
    expect(t.runtime.serviceTokenRefusals.lastHour(t.clock.now()).byToken.size).toBe(0);
  });

  it("answers any other method 405 with Allow: GET", async () => {
    const { token } = serviceToken(t.runtime);
    for (const method of ["POST", "DELETE", "PUT"]) {
      const res = await ask(token, method);
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
      expect(await res.json()).toMatchObject({ status: 405, title: "Method not allowed" });
    }
  });
});
