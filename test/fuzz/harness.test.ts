import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertItems } from "@/db/queries/items";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { type Exchange, findingsOf } from "./checks";
import type { DiscoveredRoute } from "./discover";
import { dispatch, nextServer, type ProxyModule } from "./front";
import { JsonObject, Raw } from "./hostile-values";
import { fromPlain, mutate, toJsonText } from "./json-body";
import { changesBetween, isChargeOf, takeSnapshot } from "./state";
import { sweepBodies } from "./sweep";

// The fuzz suite's own parts, checked on cases whose answers are known: a checker that cannot
// see a change, or a harness that hides Next's failures, would let every route pass.

describe("fuzz state snapshots", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
  });
  afterEach(() => t.cleanup());

  const input = (customerId: number) => {
    const customer = t.runtime.policy.snapshot.byId.get(customerId);
    if (!customer) throw new Error("no customer");
    return { customer, operation: "read" as const, now: t.clock.now() };
  };

  it("changes nothing by taking one: two in a row are equal, no bucket is created", async () => {
    const first = await takeSnapshot(t.runtime);
    const second = await takeSnapshot(t.runtime);
    expect(changesBetween(first, second)).toEqual([]);
    expect(t.runtime.limiter.size).toBe(0);
    expect(first.tables.get("customers")).toHaveLength(1);
  });

  it("sees a new row and a taken token, and tells a charge of one token from more", async () => {
    const before = await takeSnapshot(t.runtime);
    insertItems(t.runtime.db, t.demoId, [{ name: "x", quantity: 1 }], t.clock.now());
    expect(changesBetween(before, await takeSnapshot(t.runtime)).map((c) => c.what)).toEqual([
      "table items",
      "table sqlite_sequence",
    ]);
    const rowless = await takeSnapshot(t.runtime);
    expect(t.runtime.limiter.allow(input(t.demoId))).toBe(true);
    const charged = await takeSnapshot(t.runtime);
    expect(changesBetween(rowless, charged).map((c) => c.what)).toEqual([
      "bucket count",
      `buckets ${t.demoId}:read`,
    ]);
    expect(isChargeOf(rowless, charged, t.demoId, "read", 1)).toBe(true);
    expect(isChargeOf(rowless, charged, t.demoId, "write", 1)).toBe(false);
    expect(t.runtime.limiter.allow(input(t.demoId))).toBe(true);
    expect(isChargeOf(rowless, await takeSnapshot(t.runtime), t.demoId, "read", 1)).toBe(false);
  });
});

describe("fuzz front: what Next does around a handler", () => {
  const route = (handler: DiscoveredRoute["handler"]): DiscoveredRoute => ({
    key: "GET /api/x/[id]",
    method: "GET",
    path: "/api/x/[id]",
    params: ["id"],
    handler,
  });
  const echo = route(async (request, { params }) =>
    Response.json({ id: (await params).id, seen: request.headers.get("x-seen") }),
  );
  const get = (path: string) => new Request(`http://test${path}`);

  it("decodes segments; a malformed escape is refused by the server entry, before Next", async () => {
    const ok = await dispatch(echo, get("/api/x/%C3%A9"), { id: "%C3%A9" }, undefined);
    expect(await ok.response.json()).toEqual({ id: "é", seen: null });
    const bad = await dispatch(echo, get("/api/x/%E0%A4%A"), { id: "%E0%A4%A" }, undefined);
    expect(bad.response.status).toBe(400);
    expect(bad.response.headers.get("content-type")).toBe("application/problem+json");
    expect(bad.note).toBe("the server entry refused the path before Next");
  });

  it("redirects an empty segment or a trailing slash before routing, as Next does", async () => {
    const empty = await dispatch(echo, get("/api/x//y?a=1"), { id: "" }, undefined);
    expect(empty.response.status).toBe(308);
    expect(empty.response.headers.get("location")).toBe("/api/x/y?a=1");
    const trailing = await dispatch(echo, get("/api/x/"), { id: "" }, undefined);
    expect(trailing.response.headers.get("location")).toBe("/api/x");
  });

  it("answers a thrown handler with a bare 500 that names the error", async () => {
    const throws = route(() => {
      throw new TypeError("boom");
    });
    const answer = await dispatch(throws, get("/api/x/1"), { id: "1" }, undefined);
    expect(answer.response.status).toBe(500);
    expect(answer.note).toBe("the handler threw TypeError: boom");
  });

  it("runs the app's proxy first: its answer stands, NextResponse.next() passes headers on", async () => {
    const { NextResponse } = await nextServer();
    const proxy: ProxyModule = {
      run: (request) => {
        if (new URL(request.url).pathname.includes("%E0"))
          return new Response(null, { status: 400 });
        const headers = new Headers(request.headers);
        headers.set("x-seen", "yes");
        return NextResponse.next({ request: { headers } });
      },
      config: { matcher: "/api/:path*" },
    };
    const refused = await dispatch(echo, get("/api/x/%E0%A4%A"), { id: "%E0%A4%A" }, proxy);
    expect(refused.response.status).toBe(400);
    const passed = await dispatch(echo, get("/api/x/7"), { id: "7" }, proxy);
    expect(await passed.response.json()).toEqual({ id: "7", seen: "yes" });
  });
});

describe("fuzz bodies", () => {
  it("writes prototype-named and repeated keys as own keys, and raw numbers as written", () => {
    const body = new JsonObject([
      ["__proto__", 1],
      ["name", "a"],
      ["name", new Raw("-0")],
    ]);
    const text = toJsonText(body);
    expect(text).toBe('{"__proto__":1,"name":"a","name":-0}');
    expect(Object.hasOwn(JSON.parse(text), "__proto__")).toBe(true);
    expect(toJsonText(fromPlain({ s: "\uD800" }))).toBe('{"s":"\\ud800"}');
  });

  it("mutates a valid body at the depth its path reaches", () => {
    const valid = fromPlain({ limits: [{ count: 1, periodMs: 1000 }] });
    const base = { key: "toString", value: null, oddString: "\u0000", oddNumber: 1.5 };
    const odd = mutate(valid, { ...base, op: "odd", path: [0, 0, 1] });
    expect(toJsonText(odd)).toBe('{"limits":[{"count":1,"periodMs":1.5}]}');
    const added = mutate(valid, { ...base, op: "add-key", path: [1, 0, 3] });
    expect(toJsonText(added)).toBe('{"limits":[{"count":1,"periodMs":1000,"toString":null}]}');
  });
});

describe("fuzz checks", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
  });
  afterEach(() => t.cleanup());

  const adminWrite: DiscoveredRoute = {
    key: "POST /api/admin/plans",
    method: "POST",
    path: "/api/admin/plans",
    params: [],
    handler: () => new Response(null),
  };

  const decision: DiscoveredRoute = {
    key: "POST /api/bench/decisions",
    method: "POST",
    path: "/api/bench/decisions",
    params: [],
    handler: () => new Response(null),
  };

  async function exchange(
    response: Response,
    headers: Record<string, string> = {},
    sent = "{}",
    route = adminWrite,
  ) {
    const state = await takeSnapshot(t.runtime);
    const x: Exchange = {
      route,
      request: new Request(`http://test${route.path}`, { method: "POST", headers }),
      readsBody: true,
      sent,
      rawParams: {},
      answer: { response },
      text: await response.clone().text(),
      logged: [],
      before: state,
      after: response.status >= 400 ? state : undefined,
    };
    return findingsOf(x, t.runtime).map((f) => `${f.status} ${f.kind}`);
  }
  const json = { "content-type": "application/json" };

  it("passes a problem 4xx that changed nothing, and a same-origin JSON write", async () => {
    const problem = Response.json(
      { type: "about:blank", title: "Invalid request", status: 400 },
      { status: 400, headers: { "content-type": "application/problem+json" } },
    );
    expect(await exchange(problem, json)).toEqual([]);
    expect(await exchange(new Response(null, { status: 201 }), json)).toEqual([]);
  });

  it("reports a 5xx, a bare 4xx, a cross-site write and a write without a JSON type", async () => {
    expect(await exchange(new Response("", { status: 500 }), json)).toEqual(["500 server error"]);
    expect(await exchange(new Response("no", { status: 400 }), json)).toEqual([
      "400 4xx without a problem body",
    ]);
    const evil = { ...json, origin: "http://evil.example" };
    expect(await exchange(new Response(null, { status: 201 }), evil)).toEqual([
      "201 cross-site admin write accepted",
    ]);
    expect(
      await exchange(new Response(null, { status: 201 }), { "content-type": "text/plain" }),
    ).toEqual(["201 admin body not declared JSON accepted"]);
    const latin1 = { "content-type": "application/json; charset=latin1" };
    expect(await exchange(new Response(null, { status: 201 }), latin1)).toEqual([
      "201 admin body not declared JSON accepted",
    ]);
  });

  it("reports a decision answered for a body not declared JSON in UTF-8", async () => {
    const decided = () => Response.json({ allowed: true });
    expect(await exchange(decided(), json, "{}", decision)).toEqual([]);
    const utf8 = { "content-type": "application/json; charset=UTF-8" };
    expect(await exchange(decided(), utf8, "{}", decision)).toEqual([]);
    const latin1 = { "content-type": "application/json; charset=latin1" };
    expect(await exchange(decided(), latin1, "{}", decision)).toEqual([
      "200 decision body not declared JSON accepted",
    ]);
    expect(await exchange(decided(), {}, "{}", decision)).toEqual([
      "200 decision body not declared JSON accepted",
    ]);
  });

  it("reports a body that gives a key twice when it is accepted, not when it is refused", async () => {
    const twice = '{"limits":[{"count":1,"\\u0063ount":2}],"name":"a"}';
    expect(await exchange(new Response(null, { status: 201 }), json, twice)).toEqual([
      "201 body with a key given twice accepted",
    ]);
    const problem = Response.json(
      { type: "about:blank", title: "Invalid request", status: 400 },
      { status: 400, headers: { "content-type": "application/problem+json" } },
    );
    expect(await exchange(problem, json, twice)).toEqual([]);
  });
});

describe("fuzz sweep", () => {
  it("puts each odd value in each field, and each prototype-named key in each object", () => {
    const bodies = sweepBodies(fromPlain({ name: "a", limits: [{ count: 1 }] })).map(toJsonText);
    expect(bodies).toContain('{"name":"\\u0000abc","limits":[{"count":1}]}');
    expect(bodies).toContain('{"name":"a","limits":[{"count":1.5}]}');
    expect(bodies).toContain('{"name":"a","limits":[{"count":1,"__proto__":1}]}');
    expect(bodies).toContain('{"name":"a","limits":[{"count":1}],"constructor":1}');
    expect(bodies).toContain('[{"name":"a","limits":[{"count":1}]}]');
    expect(bodies).toContain('{"name":"a","limits":[{"count":1,"count":1}]}');
    expect(bodies).toContain('{"name":"a","limits":[{"count":1}],"limits":[{"count":1}]}');
  });
});
