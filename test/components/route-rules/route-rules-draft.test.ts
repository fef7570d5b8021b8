import { describe, expect, it } from "vitest";
import {
  DEFAULT_CLASS,
  describeChanges,
  draftOfRule,
  moveRule,
  newRuleDraft,
  type RuleBody,
  type RuleDraft,
  ruleInWords,
  sameRules,
  testResultInWords,
  toRuleBody,
  validateRules,
} from "@/components/route-rules/route-rules-draft";

const AT = { createdAt: 1, updatedAt: 1 };
const row = (fields: Partial<RuleDraft>): RuleDraft => ({ ...newRuleDraft(), ...fields });
const body = (fields: Partial<RuleBody>): RuleBody => ({
  method: "*",
  pattern: "/",
  unmetered: false,
  operation: null,
  cost: null,
  ...fields,
});

describe("the route rules editor's rows", () => {
  it("round-trip a stored rule: defaults as blanks, and back to nulls", () => {
    const stored = {
      method: "POST",
      pattern: "/v1/exports",
      unmetered: false,
      operation: null,
      cost: 5,
    } as const;
    const draft = draftOfRule({ ...stored, ...AT });
    expect(draft).toMatchObject({ operation: DEFAULT_CLASS, cost: "5" });
    expect(toRuleBody(draft)).toEqual(stored);
    expect(toRuleBody(draftOfRule({ ...stored, cost: null, ...AT })).cost).toBeNull();
  });

  it("send an unmetered row without the class and cost left in its hidden fields", () => {
    expect(toRuleBody(row({ unmetered: true, operation: "read", cost: "9" }))).toEqual(
      body({ unmetered: true }),
    );
  });

  it("are checked with the server's schema and its error paths", () => {
    const result = validateRules([row({ pattern: "/a" }), row({ pattern: "nope", cost: "0" })]);
    expect(result).toEqual({
      ok: false,
      errors: {
        "rules.1.pattern": ['Pattern must start with "/"'],
        "rules.1.cost": ["Cost must be a whole number from 1 to 1,000,000"],
      },
    });
    expect(validateRules([row({ pattern: " /a ", cost: " 3 " })])).toEqual({
      ok: true,
      data: { rules: [body({ pattern: "/a", cost: 3 })] },
    });
  });

  it("move up and down within the list, and tell a reordered list from the saved one", () => {
    const a = row({ pattern: "/a" });
    const b = row({ pattern: "/b" });
    expect(moveRule([a, b], 1, -1)).toEqual([b, a]);
    expect(moveRule([a, b], 1, 1)).toEqual([a, b]);
    expect(moveRule([a, b], 0, -1)).toEqual([a, b]);
    expect(sameRules([a, b], [a, b])).toBe(true);
    expect(sameRules([a, b], [b, a])).toBe(false);
    // Rows with new keys but the same rules are the same list.
    expect(sameRules([a], [{ ...a, key: -1 }])).toBe(true);
  });
});

describe("the route rules in words", () => {
  it("say what each rule does", () => {
    expect(ruleInWords(body({ method: "POST", pattern: "/v1/exports", cost: 5 }))).toBe(
      "POST /v1/exports: 5 tokens of the method's class",
    );
    expect(ruleInWords(body({ method: "GET", pattern: "/health", unmetered: true }))).toBe(
      "GET /health: unmetered",
    );
    expect(ruleInWords(body({ pattern: "/v1/**", operation: "read" }))).toBe(
      "any method /v1/**: 1 token of read",
    );
  });

  it("list a save's changes for its confirmation: added, changed, removed, reordered", () => {
    const exports = body({ method: "POST", pattern: "/v1/exports", cost: 5 });
    const health = body({ method: "GET", pattern: "/health", unmetered: true });
    const old = body({ pattern: "/old" });
    expect(describeChanges([exports, old], [health, { ...exports, cost: 10 }])).toEqual([
      "Add GET /health: unmetered",
      "Change POST /v1/exports: 5 tokens of the method's class → 10 tokens of the method's class",
      "Remove any method /old: 1 token of the method's class",
    ]);
    expect(describeChanges([exports, health], [health, exports])).toEqual([
      "Reorder the rules: the first that matches applies",
    ]);
    expect(describeChanges([exports], [exports])).toEqual([]);
  });

  it("say which rule a tested path hits, and what it costs", () => {
    expect(
      testResultInWords({
        match: { index: 1, rule: body({ method: "POST", pattern: "/v1/exports", cost: 5 }) },
        effect: { unmetered: false, operation: "write", cost: 5 },
      }),
    ).toBe("Rule 2 (POST /v1/exports: 5 tokens of the method's class) matches: 5 tokens of write.");
    expect(
      testResultInWords({ match: null, effect: { unmetered: false, operation: "read", cost: 1 } }),
    ).toBe("No rule matches: 1 token of read, the method's default.");
    expect(
      testResultInWords({
        match: { index: 0, rule: body({ method: "GET", pattern: "/health", unmetered: true }) },
        effect: { unmetered: true },
      }),
    ).toBe("Rule 1 (GET /health: unmetered) matches: unmetered: forwarded with no token taken.");
  });
});
