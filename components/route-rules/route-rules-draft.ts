import { type Validation, validateWith } from "@/components/ui/validation";
import { countOf } from "@/lib/format";
import {
  type RouteMethod,
  type RouteRules,
  routeRulesSchema,
} from "@/lib/schemas/route-rule.schema";
import type { RouteTestAnswer, StoredRouteRuleView } from "@/lib/schemas/route-rule-answer.schema";

/** DEFAULT_CLASS is the class select's value for "the method's default" (no class sent). */
export const DEFAULT_CLASS = "";

/**
 * RuleDraft is one row of the route rules editor, before validation: the cost as typed ("" for
 * the default, 1), the class or DEFAULT_CLASS. `key` keeps a row's identity while rows move.
 */
export interface RuleDraft {
  key: number;
  method: RouteMethod;
  pattern: string;
  unmetered: boolean;
  operation: string;
  cost: string;
}

let nextKey = 0;

/** newRuleDraft is a row to add: any method, the whole API, metered at the method's default. */
export function newRuleDraft(): RuleDraft {
  return {
    key: ++nextKey,
    method: "*",
    pattern: "/",
    unmetered: false,
    operation: DEFAULT_CLASS,
    cost: "",
  };
}

/** draftOfRule turns a stored rule into an editor row. */
export function draftOfRule(rule: StoredRouteRuleView): RuleDraft {
  return {
    key: ++nextKey,
    method: rule.method,
    pattern: rule.pattern,
    unmetered: rule.unmetered,
    operation: rule.operation ?? DEFAULT_CLASS,
    cost: rule.cost === null ? "" : String(rule.cost),
  };
}

/** RuleBody is a rule as the editor sends it, before the schema checks it. */
export interface RuleBody {
  method: RouteMethod;
  pattern: string;
  unmetered: boolean;
  operation: string | null;
  cost: number | null;
}

/** costOf reads a typed cost: blank is null (the default, 1), anything else a number (maybe bad). */
function costOf(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === "" ? null : Number(trimmed);
}

/** toRuleBody converts a row to the API's shape; an unmetered row sends no class or cost. */
export function toRuleBody(draft: RuleDraft): RuleBody {
  return {
    method: draft.method,
    pattern: draft.pattern.trim(),
    unmetered: draft.unmetered,
    operation: draft.unmetered || draft.operation === DEFAULT_CLASS ? null : draft.operation,
    cost: draft.unmetered ? null : costOf(draft.cost),
  };
}

/** validateRules checks the rows with the server's own schema and error paths. */
export function validateRules(drafts: readonly RuleDraft[]): Validation<RouteRules> {
  return validateWith(routeRulesSchema, { rules: drafts.map(toRuleBody) });
}

/** sameRules tells whether two lists of rows send the same rules in the same order. */
export function sameRules(a: readonly RuleDraft[], b: readonly RuleDraft[]): boolean {
  return JSON.stringify(a.map(toRuleBody)) === JSON.stringify(b.map(toRuleBody));
}

/** moveRule returns the rows with row `index` moved by `by` places (kept within the list). */
export function moveRule<T>(rows: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= rows.length) return [...rows];
  const next = [...rows];
  [next[index], next[to]] = [next[to] as T, next[index] as T];
  return next;
}

/**
 * ruleInWords says what a rule does: "POST /v1/exports: 5 tokens of write", "GET /health:
 * unmetered", "any method /v1/**: 1 token of the method's class".
 */
export function ruleInWords(rule: RuleBody): string {
  const method = rule.method === "*" ? "any method" : rule.method;
  const where = `${method} ${rule.pattern}`;
  if (rule.unmetered) return `${where}: unmetered`;
  const cost = countOf(rule.cost ?? 1, "token");
  return `${where}: ${cost} of ${rule.operation ?? "the method's class"}`;
}

/**
 * describeChanges lists, for the confirmation before saving, what saving `next` over `saved`
 * does: rules added, removed or changed (by method and pattern), and whether the order changed.
 */
export function describeChanges(saved: readonly RuleBody[], next: readonly RuleBody[]): string[] {
  const id = (r: RuleBody) => `${r.method} ${r.pattern}`;
  const before = new Map(saved.map((r) => [id(r), r]));
  const after = new Map(next.map((r) => [id(r), r]));
  const lines: string[] = [];
  for (const rule of next) {
    const was = before.get(id(rule));
    if (!was) lines.push(`Add ${ruleInWords(rule)}`);
    else if (ruleInWords(was) !== ruleInWords(rule)) {
      lines.push(`Change ${ruleInWords(was)} → ${ruleInWords(rule).slice(id(rule).length + 2)}`);
    }
  }
  for (const rule of saved) if (!after.has(id(rule))) lines.push(`Remove ${ruleInWords(rule)}`);
  const kept = (list: readonly RuleBody[], other: Map<string, RuleBody>) =>
    list.map(id).filter((k) => other.has(k));
  if (kept(saved, after).join("\n") !== kept(next, before).join("\n")) {
    lines.push("Reorder the rules: the first that matches applies");
  }
  return lines;
}

/** rulesSummary counts the rules in force for the page's header: "3 rules", "No rules". */
export function rulesSummary(count: number): string {
  return count === 0
    ? "No rules: every request is one token of its method's class"
    : countOf(count, "rule");
}

/** testResultInWords says which rule a tested request hits and what it costs, for people. */
export function testResultInWords(answer: RouteTestAnswer): string {
  const cost = answer.effect.unmetered
    ? "unmetered: forwarded with no token taken"
    : `${countOf(answer.effect.cost, "token")} of ${answer.effect.operation}`;
  return answer.match
    ? `Rule ${answer.match.index + 1} (${ruleInWords(answer.match.rule)}) matches: ${cost}.`
    : `No rule matches: ${cost}, the method's default.`;
}
