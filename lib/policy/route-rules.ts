import { ROUTE_METHODS, type RouteRule } from "@/lib/schemas/route-rule.schema";
import { type Operation, operationOf } from "@/lib/vocabulary";

/**
 * RouteEffect is what a matched rule does to a request: forward it unmetered (the key is still
 * checked; no token is taken and no decision counted), or decide it as `operation` at `cost`
 * tokens.
 */
export type RouteEffect =
  | { unmetered: true }
  | { unmetered: false; operation: Operation; cost: number };

/** RouteMatch is the first rule a request matches: its index in the list, and the rule. */
export interface RouteMatch {
  index: number;
  rule: RouteRule;
}

interface CompiledRule {
  index: number;
  rule: RouteRule;
  /** literals are the segments before any "**": a string to equal, or null for "*" (one non-empty segment). */
  literals: (string | null)[];
  /** rest: the pattern ends in "**", so any rest of the path (none included) matches. */
  rest: boolean;
}

/** compile splits a pattern ("/", "/a/*", "/a/**") into its segments once. */
function compile(rule: RouteRule, index: number): CompiledRule {
  const segments = rule.pattern.slice(1).split("/");
  const rest = segments[segments.length - 1] === "**";
  if (rest) segments.pop();
  return { index, rule, literals: segments.map((s) => (s === "*" ? null : s)), rest };
}

function matches(compiled: CompiledRule, segments: readonly string[]): boolean {
  const { literals } = compiled;
  if (compiled.rest ? segments.length < literals.length : segments.length !== literals.length) {
    return false;
  }
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i];
    const segment = segments[i] as string;
    if (literal === null ? segment === "" : segment !== literal) return false;
  }
  return true;
}

/**
 * RouteMatcher finds the first route rule a request matches. It is built once per policy
 * snapshot: the rules are split into segments and sorted into one list per method (each keeping
 * the list's order, "*" rules included), so a request looks only at the rules of its method;
 * with no rules, `match` returns at once.
 */
export class RouteMatcher {
  /** rules are the rules in their order, as given. */
  readonly rules: readonly RouteRule[];
  private readonly byMethod: ReadonlyMap<string, readonly CompiledRule[]>;
  /** anyMethod are the "*" rules: those of a method no rule names. */
  private readonly anyMethod: readonly CompiledRule[];

  constructor(rules: readonly RouteRule[]) {
    this.rules = rules;
    const compiled = rules.map(compile);
    this.anyMethod = compiled.filter((c) => c.rule.method === "*");
    const byMethod = new Map<string, CompiledRule[]>();
    for (const method of ROUTE_METHODS) {
      if (method === "*") continue;
      const own = compiled.filter((c) => c.rule.method === method || c.rule.method === "*");
      if (own.length > 0) byMethod.set(method, own);
    }
    this.byMethod = byMethod;
  }

  /**
   * match returns the first rule for `method` whose pattern matches `path` (the path after /gw,
   * from its "/", no query, raw), or undefined: the request is metered as it would be without
   * rules.
   */
  match(method: string, path: string): RouteMatch | undefined {
    if (this.rules.length === 0) return undefined;
    const candidates = this.byMethod.get(method) ?? this.anyMethod;
    if (candidates.length === 0) return undefined;
    const segments = path.slice(1).split("/");
    for (const compiled of candidates) {
      if (matches(compiled, segments)) return { index: compiled.index, rule: compiled.rule };
    }
    return undefined;
  }
}

/** NO_ROUTE_RULES is a matcher with no rules: every request is metered by its method. */
export const NO_ROUTE_RULES = new RouteMatcher([]);

/**
 * routeEffect is what a request of `method` does under `rule` (or no rule): unmetered, or its
 * class (the rule's, else the method's default: GET and HEAD read, others write) and its cost
 * (the rule's, else 1).
 */
export function routeEffect(rule: RouteRule | undefined, method: string): RouteEffect {
  if (rule?.unmetered) return { unmetered: true };
  return {
    unmetered: false,
    // The class was checked against the known classes when the rules were saved (or read from Redis).
    operation: (rule?.operation as Operation | null | undefined) ?? operationOf(method),
    cost: rule?.cost ?? 1,
  };
}
