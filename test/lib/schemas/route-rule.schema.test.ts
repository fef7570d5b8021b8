import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "@/lib/schemas/problem.schema";
import { patternIssue, routeRulesSchema } from "@/lib/schemas/route-rule.schema";

const errorsOf = (body: unknown) => {
  const parsed = routeRulesSchema.safeParse(body);
  return parsed.success ? {} : fieldErrorsOf(parsed.error);
};

describe("a route pattern", () => {
  it.each(["/", "/health", "/v1/exports", "/users/*/files", "/static/**", "/**", "/a%20b/@me:x"])(
    "accepts %s",
    (pattern) => {
      expect(patternIssue(pattern)).toBeNull();
    },
  );

  it.each([
    ["", "Pattern is required"],
    ["health", 'Pattern must start with "/"'],
    ["/a//b", 'Pattern must not hold an empty segment ("//")'],
    ["/a/", 'Pattern must not end with "/": add "**" to match below it'],
    ["/**/a", '"**" may only be the last segment'],
    ["/a*", 'Use "*" or "**" as a whole segment, such as /users/*/files'],
    ["/a/../b", 'Pattern must not hold "." or ".." segments'],
    ["/a?b=1", expect.stringMatching(/^Pattern may hold only path characters/)],
    ["/a b", expect.stringMatching(/^Pattern may hold only path characters/)],
    [`/${"a".repeat(512)}`, "Pattern must be at most 512 characters"],
  ])("refuses %j", (pattern, message) => {
    expect(patternIssue(pattern)).toEqual(message);
  });
});

describe("a list of route rules", () => {
  it("fills an absent effect: metered, the method's class, cost 1", () => {
    expect(routeRulesSchema.parse({ rules: [{ method: "GET", pattern: "/a" }] })).toEqual({
      rules: [{ method: "GET", pattern: "/a", unmetered: false, operation: null, cost: null }],
    });
  });

  it("gives every error at once, by field", () => {
    expect(
      errorsOf({
        rules: [
          { method: "get", pattern: "a" },
          { method: "*", pattern: "/x", unmetered: true, operation: "read", cost: 2 },
          { method: "POST", pattern: "/y", operation: "Exports!", cost: 0 },
          { method: "POST", pattern: "/y" },
        ],
      }),
    ).toEqual({
      "rules.0.method": ["Method must be one of *, GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"],
      "rules.0.pattern": ['Pattern must start with "/"'],
      "rules.1.operation": ["An unmetered rule takes no class"],
      "rules.1.cost": ["An unmetered rule takes no cost"],
      "rules.2.operation": ["Class names are lowercase letters, digits and dashes, 1 to 32"],
      "rules.2.cost": ["Cost must be a whole number from 1 to 1,000,000"],
      "rules.3.pattern": [
        "An earlier rule has this method and pattern: this one would never match",
      ],
    });
  });

  it("holds at most 200 rules", () => {
    const rules = Array.from({ length: 201 }, (_, i) => ({ method: "GET", pattern: `/r${i}` }));
    expect(errorsOf({ rules })).toEqual({ rules: ["At most 200 rules"] });
  });
});
