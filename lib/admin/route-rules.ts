import { listClassNames } from "@/db/queries/operation-classes";
import { listRouteRules, listStoredRouteRules, replaceRouteRules } from "@/db/queries/route-rules";
import { routeEffect } from "@/lib/policy/route-rules";
import type { FieldErrors } from "@/lib/schemas/problem.schema";
import type { RouteRules, RouteTest } from "@/lib/schemas/route-rule.schema";
import type { RouteRulesAnswer, RouteTestAnswer } from "@/lib/schemas/route-rule-answer.schema";
import { change } from "./change";
import type { AdminContext } from "./context";
import type { Outcome } from "./plans";

/**
 * routeRuleClasses are the operation classes a route rule may name (the one place that says so):
 * the classes the database has.
 */
export function routeRuleClasses(rt: AdminContext): readonly string[] {
  return listClassNames(rt.db);
}

/** routeRulesOf answers the route rules in the order they are tried, and the classes a rule may name. */
export function routeRulesOf(rt: AdminContext): RouteRulesAnswer {
  return { rules: listStoredRouteRules(rt.db), classes: [...routeRuleClasses(rt)] };
}

/** unknownClasses flags each rule that names a class that does not exist, by field. */
function unknownClasses(rules: RouteRules["rules"], classes: readonly string[]): FieldErrors {
  const errors: Record<string, string[]> = {};
  const known = new Set(classes);
  rules.forEach((rule, index) => {
    if (rule.operation !== null && !known.has(rule.operation)) {
      errors[`rules.${index}.operation`] = [
        `Unknown class ${JSON.stringify(rule.operation)}: use one of ${classes.join(", ")}`,
      ];
    }
  });
  return errors;
}

/**
 * setRouteRules replaces the whole ordered list of route rules, audits it (`route-rules.set`,
 * the list before and after) and rebuilds the policy: the gateway, and the edges once they hear
 * of it, meter by the new rules from their next request. A rule naming an unknown class is a 400
 * by field, and nothing is written.
 */
export function setRouteRules(
  rt: AdminContext,
  actor: string,
  input: RouteRules,
): Outcome<RouteRulesAnswer> {
  const errors = unknownClasses(input.rules, routeRuleClasses(rt));
  if (Object.keys(errors).length > 0) {
    return { ok: false, status: 400, title: "Invalid route rules", errors };
  }
  return change(rt, actor, (tx, now) => {
    const before = listRouteRules(tx);
    replaceRouteRules(tx, input.rules, now);
    const entry = { action: "route-rules.set", entityType: "route-rules", entityId: null } as const;
    return {
      ok: true,
      value: { rules: listStoredRouteRules(tx), classes: [...routeRuleClasses(rt)] },
      audit: { ...entry, before: { rules: before }, after: { rules: listRouteRules(tx) } },
    };
  });
}

/**
 * testRoute says what the gateway does with a request of `method` to `path` (after /gw; a query
 * is ignored) under the rules in force: the first rule it matches, if any, and its effect.
 */
export function testRoute(rt: AdminContext, input: RouteTest): RouteTestAnswer {
  const query = input.path.indexOf("?");
  const path = query < 0 ? input.path : input.path.slice(0, query);
  const match = rt.policy.snapshot.routes.match(input.method, path);
  return {
    match: match ? { index: match.index, rule: match.rule } : null,
    effect: routeEffect(match?.rule, input.method),
  };
}
