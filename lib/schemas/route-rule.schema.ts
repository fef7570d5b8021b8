import { z } from "zod";
import { CLASS_NAME_PATTERN } from "@/lib/vocabulary";
import { COST_RULE, isCost } from "./cost.schema";
import { ANY_LIST, ANY_OBJECT, isRecord } from "./every-error";

// Route rules: how the gateway meters a request by its method and path (docs/gateway.md, "Route
// rules"). A pattern is matched against the path as the gateway sees it after its /gw prefix,
// before the upstream's base path is put in front and without the query, raw (not
// percent-decoded): `/v1/exports`, `/users/*/files/**`.

/** ROUTE_METHODS are the methods a rule names: one HTTP method, or "*" for any. */
export const ROUTE_METHODS = [
  "*",
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
] as const;

/** RouteMethod is one of ROUTE_METHODS. */
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/** MAX_ROUTE_RULES is the most rules the gateway keeps: 200. */
export const MAX_ROUTE_RULES = 200;

/** MAX_PATTERN_LENGTH is the longest pattern: 512 characters. */
export const MAX_PATTERN_LENGTH = 512;

/**
 * PATH_SEGMENT is what a literal segment may hold: RFC 3986's path characters (unreserved,
 * percent-escapes, sub-delims, ":" and "@"), compared as they are, never decoded.
 */
const PATH_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()+,;=:@]|%[0-9A-Fa-f]{2})+$/;

/**
 * patternIssue says what is wrong with a route pattern, or returns null: it starts with "/",
 * has no empty segment (the pattern "/" alone matches the root), no "." or ".." segment, uses
 * "*" and "**" only as whole segments and "**" only last, and holds only path characters.
 */
export function patternIssue(pattern: string): string | null {
  if (pattern.length === 0) return "Pattern is required";
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return `Pattern must be at most ${MAX_PATTERN_LENGTH} characters`;
  }
  if (!pattern.startsWith("/")) return 'Pattern must start with "/"';
  if (pattern === "/") return null;
  const segments = pattern.slice(1).split("/");
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    if (segment === "") {
      return last
        ? 'Pattern must not end with "/": add "**" to match below it'
        : 'Pattern must not hold an empty segment ("//")';
    }
    if (segment === "**") {
      if (!last) return '"**" may only be the last segment';
      continue;
    }
    if (segment === "*") continue;
    if (segment.includes("*")) return 'Use "*" or "**" as a whole segment, such as /users/*/files';
    if (segment === "." || segment === "..") return 'Pattern must not hold "." or ".." segments';
    if (!PATH_SEGMENT.test(segment)) {
      return "Pattern may hold only path characters: letters, digits, - . _ ~ % and ! $ & ' ( ) + , ; = : @";
    }
  }
  return null;
}

const patternSchema = z.string({ error: "Pattern is required" }).superRefine((pattern, ctx) => {
  const issue = patternIssue(pattern);
  if (issue) ctx.addIssue({ code: "custom", message: issue });
});

/** classNameSchema accepts a class name of the right form (whether it exists is checked apart). */
export const classNameSchema = z
  .string({ error: "Class must be a class's name" })
  .regex(CLASS_NAME_PATTERN, "Class names are lowercase letters, digits and dashes, 1 to 32");

/**
 * routeRuleSchema is one rule as the admin API takes and answers it: a method and a pattern, then
 * either `unmetered: true` (forwarded with the key checked, no token taken, no decision counted)
 * or an operation class and a cost (`null` or absent: the method's default class, and 1).
 */
export const routeRuleSchema = z
  .object({
    method: z.enum(ROUTE_METHODS, {
      error: `Method must be one of ${ROUTE_METHODS.join(", ")}`,
    }),
    pattern: patternSchema,
    unmetered: z.boolean({ error: "Unmetered must be true or false" }).default(false),
    operation: classNameSchema.nullable().default(null),
    cost: z.number({ error: COST_RULE }).refine(isCost, COST_RULE).nullable().default(null),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (!isRecord(rule) || rule.unmetered !== true) return;
    for (const field of ["operation", "cost"] as const) {
      if (rule[field] !== null && rule[field] !== undefined) {
        ctx.addIssue({
          code: "custom",
          message: `An unmetered rule takes no ${field === "cost" ? "cost" : "class"}`,
          path: [field],
        });
      }
    }
  }, ANY_OBJECT);

/** RouteRule is a validated route rule: absent fields filled (`unmetered` false, nulls). */
export type RouteRule = z.output<typeof routeRuleSchema>;

/** RouteRuleInput is a route rule as a client may send it (defaults may be left out). */
export type RouteRuleInput = z.input<typeof routeRuleSchema>;

/** routeRulesSchema is PUT /api/admin/route-rules's body: the whole ordered list. */
export const routeRulesSchema = z
  .object({
    rules: z
      .array(routeRuleSchema, { error: "Rules must be a list" })
      .max(MAX_ROUTE_RULES, `At most ${MAX_ROUTE_RULES} rules`)
      .superRefine((rules: readonly unknown[], ctx) => {
        // A rule that repeats an earlier one's method and pattern could never match.
        const seen = new Set<string>();
        rules.forEach((rule, index) => {
          if (!isRecord(rule)) return;
          const key = `${String(rule.method)} ${String(rule.pattern)}`;
          if (seen.has(key)) {
            ctx.addIssue({
              code: "custom",
              message: "An earlier rule has this method and pattern: this one would never match",
              path: [index, "pattern"],
            });
          }
          seen.add(key);
        });
      }, ANY_LIST),
  })
  .strict();

/** RouteRules is a validated PUT body. */
export type RouteRules = z.output<typeof routeRulesSchema>;

/** routeTestSchema is POST /api/admin/route-rules/test's body: a request's method and path. */
export const routeTestSchema = z
  .object({
    method: z
      .string({ error: "Method is required" })
      .regex(/^[A-Z]{1,20}$/, "Method must be an HTTP method in capitals, such as GET"),
    path: z
      .string({ error: "Path is required" })
      .min(1, "Path is required")
      .max(2_048, "Path must be at most 2,048 characters")
      .startsWith("/", 'Path must start with "/"'),
  })
  .strict();

/** RouteTest is a validated route test. */
export type RouteTest = z.infer<typeof routeTestSchema>;
