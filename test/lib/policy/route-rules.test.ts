import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RouteMatcher, routeEffect } from "@/lib/policy/route-rules";
import { type RouteRule, routeRuleSchema } from "@/lib/schemas/route-rule.schema";

const rule = (method: RouteRule["method"], pattern: string, extra: Partial<RouteRule> = {}) =>
  routeRuleSchema.parse({ method, pattern, ...extra });

/** referenceMatch is the simplest reading of a pattern: a regular expression, tried in order. */
function referenceMatch(rules: readonly RouteRule[], method: string, path: string) {
  const index = rules.findIndex((r) => {
    if (r.method !== "*" && r.method !== method) return false;
    if (r.pattern === "/") return path === "/";
    let source = "";
    for (const segment of r.pattern.slice(1).split("/")) {
      if (segment === "**") source += "(?:/.*)?";
      else if (segment === "*") source += "/[^/]+";
      else source += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
    }
    return new RegExp(`^${source}$`).test(path);
  });
  return index < 0 ? undefined : index;
}

describe("route rules' matcher", () => {
  it("matches literals exactly, raw and case-sensitive", () => {
    const m = new RouteMatcher([rule("*", "/v1/exports")]);
    expect(m.match("POST", "/v1/exports")?.index).toBe(0);
    expect(m.match("POST", "/v1/exports/")).toBeUndefined();
    expect(m.match("POST", "/v1/Exports")).toBeUndefined();
    expect(m.match("POST", "/v1/export%73")).toBeUndefined();
    expect(m.match("POST", "/v1")).toBeUndefined();
  });

  it("reads * as exactly one non-empty segment", () => {
    const m = new RouteMatcher([rule("GET", "/users/*/files")]);
    expect(m.match("GET", "/users/7/files")?.index).toBe(0);
    expect(m.match("GET", "/users//files")).toBeUndefined();
    expect(m.match("GET", "/users/7/8/files")).toBeUndefined();
    expect(m.match("GET", "/users/files")).toBeUndefined();
  });

  it("reads a final ** as any rest, none included", () => {
    const m = new RouteMatcher([rule("GET", "/static/**")]);
    for (const path of ["/static", "/static/", "/static/a", "/static/a/b/c.css"]) {
      expect(m.match("GET", path)?.index).toBe(0);
    }
    expect(m.match("GET", "/staticx")).toBeUndefined();
    expect(new RouteMatcher([rule("GET", "/**")]).match("GET", "/")?.index).toBe(0);
  });

  it("matches the root only with / or /**", () => {
    const m = new RouteMatcher([rule("GET", "/")]);
    expect(m.match("GET", "/")?.index).toBe(0);
    expect(m.match("GET", "/a")).toBeUndefined();
    expect(new RouteMatcher([rule("GET", "/*")]).match("GET", "/")).toBeUndefined();
  });

  it("tries rules in order, the first match wins, and a method rule only its method", () => {
    const rules = [
      rule("GET", "/health", { unmetered: true }),
      rule("*", "/v1/exports", { cost: 5 }),
      rule("POST", "/v1/**", { operation: "read" }),
    ];
    const m = new RouteMatcher(rules);
    expect(m.match("GET", "/health")?.index).toBe(0);
    expect(m.match("HEAD", "/health")).toBeUndefined();
    expect(m.match("POST", "/v1/exports")?.index).toBe(1);
    expect(m.match("POST", "/v1/items")?.index).toBe(2);
    expect(m.match("PROPFIND", "/v1/exports")?.index).toBe(1);
    expect(m.match("PROPFIND", "/v1/items")).toBeUndefined();
  });

  it("with no rules, matches nothing", () => {
    expect(new RouteMatcher([]).match("GET", "/anything")).toBeUndefined();
  });

  it("agrees with a reference matcher on random rules and paths", () => {
    const segment = fc.constantFrom("a", "b", "v1", "x.y", "%20", "*");
    const pattern = fc
      .tuple(fc.array(segment, { maxLength: 4 }), fc.boolean())
      .map(([segments, rest]) => {
        const all = rest ? [...segments, "**"] : segments;
        return all.length === 0 ? "/" : `/${all.join("/")}`;
      });
    const method = fc.constantFrom("*", "GET", "POST");
    const rules = fc.array(
      fc.tuple(method, pattern).map(([m, p]) => rule(m as RouteRule["method"], p)),
      { maxLength: 8 },
    );
    const path = fc
      .array(fc.constantFrom("a", "b", "v1", "x.y", "%20", "c", ""), { maxLength: 5 })
      .map((segments) => `/${segments.join("/")}`);
    fc.assert(
      fc.property(rules, fc.constantFrom("GET", "POST", "HEAD"), path, (rs, m, p) => {
        expect(new RouteMatcher(rs).match(m, p)?.index).toBe(referenceMatch(rs, m, p));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("a route rule's effect", () => {
  it("is the method's default class at cost 1 with no rule, or a rule that names neither", () => {
    expect(routeEffect(undefined, "GET")).toEqual({ unmetered: false, operation: "read", cost: 1 });
    expect(routeEffect(rule("*", "/a"), "DELETE")).toEqual({
      unmetered: false,
      operation: "write",
      cost: 1,
    });
  });

  it("is the rule's class and cost, or unmetered", () => {
    expect(routeEffect(rule("*", "/a", { operation: "read", cost: 10 }), "POST")).toEqual({
      unmetered: false,
      operation: "read",
      cost: 10,
    });
    expect(routeEffect(rule("*", "/a", { unmetered: true }), "POST")).toEqual({ unmetered: true });
  });
});
