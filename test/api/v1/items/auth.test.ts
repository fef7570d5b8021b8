import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/v1/items/route";
import { listItems } from "@/db/queries/items";
import { api, createTestRuntime, type TestRuntime } from "../../../support/runtime";

const CHALLENGE = 'Bearer realm="ratekeeper"';

describe("items API: authentication", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
  });
  afterEach(() => t.cleanup());

  it("answers 401 with a challenge to a request without a key, consuming nothing", async () => {
    const response = await GET(api("/api/v1/items"));
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toBe(CHALLENGE);
    expect(response.headers.get("Content-Type")).toBe("application/problem+json");
    expect(response.headers.get("RateLimit")).toBeNull();
    expect(await response.json()).toEqual({
      type: "about:blank",
      title: "Missing API key",
      status: 401,
      detail: "Send Authorization: Bearer <key>.",
    });
    expect(t.runtime.limiter.size).toBe(0);
  });

  // Regression: `Authorization: <key>` was answered "Missing API key", which sends the client
  // looking for a key it did send.
  it("answers 401 saying to use the Bearer scheme to a key sent without it or with another scheme", async () => {
    for (const authorization of [t.demoKey, `Basic ${t.demoKey}`]) {
      const response = await GET(
        new Request("http://test/api/v1/items", { headers: { authorization } }),
      );
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toBe(CHALLENGE);
      expect(await response.json()).toEqual({
        type: "about:blank",
        title: "Use the Bearer scheme",
        status: 401,
        detail:
          'Send Authorization: Bearer <key>: the Authorization field must start with "Bearer " before the API key.',
      });
    }
    const twice = await GET(
      new Request("http://test/api/v1/items", {
        headers: { authorization: `Bearer ${t.demoKey} ${t.demoKey}` },
      }),
    );
    expect(twice.status).toBe(401);
    expect((await twice.json()).title).toBe("Malformed Authorization field");
    expect(t.runtime.limiter.size).toBe(0);
  });

  it("answers 401 with a challenge to an unknown key, consuming nothing", async () => {
    const response = await POST(api("/api/v1/items", { key: "rk_unknown", body: { name: "a" } }));
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toBe(CHALLENGE);
    expect(await response.json()).toEqual({
      type: "about:blank",
      title: "Unknown API key",
      status: 401,
    });
    expect(t.runtime.limiter.size).toBe(0);
    // The demo customer's read bucket is still full: 5 per second, so 4 left after one read.
    const ok = await GET(api("/api/v1/items", { key: t.demoKey }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("RateLimit")).toBe('"read-5-per-1s";r=4;t=1');
  });

  it("answers 403 to a suspended customer, consuming nothing and writing nothing", async () => {
    const customer = t.addCustomer("pro", "Suspended Ltd");
    t.suspend(customer.id);
    const read = await GET(api("/api/v1/items", { key: customer.key }));
    expect(read.status).toBe(403);
    expect(read.headers.get("WWW-Authenticate")).toBeNull();
    expect(read.headers.get("RateLimit")).toBeNull();
    expect(await read.json()).toEqual({
      type: "about:blank",
      title: "Customer suspended",
      status: 403,
    });
    const write = await POST(api("/api/v1/items", { key: customer.key, body: { name: "x" } }));
    expect(write.status).toBe(403);
    expect(t.runtime.limiter.size).toBe(0);
    expect(listItems(t.runtime.db, customer.id, { limit: 10 })).toEqual([]);
  });
});
