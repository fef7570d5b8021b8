import { z } from "zod";

/**
 * fieldErrorsSchema maps a field's dotted path ("limits.0.count", or "" for the whole body) to
 * its messages.
 */
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()).readonly());

/** FieldErrors maps a field's dotted path ("limits.0.count", or "" for the whole body) to messages. */
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

/**
 * problemSchema is an RFC 9457 problem document as Ratekeeper answers it: a `type` (about:blank
 * unless a registered problem type fits), a `title`, the HTTP `status`, and the extension members
 * it sends: `detail`, `errors` by field (a 400), `violated-policies` (the limits that refused a
 * 429 or a 413, named as RateLimit-Policy names them), `retryAfterSeconds` (a 429's wait) and
 * `controlPlane` (where an edge's 404 sends the caller). Strict: a member not named here is not
 * one Ratekeeper sends.
 */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    errors: fieldErrorsSchema.optional(),
    "violated-policies": z.array(z.string()).optional(),
    retryAfterSeconds: z.number().int().nonnegative().optional(),
    controlPlane: z.string().optional(),
  })
  .strict();

/** Problem is an RFC 9457 problem document (see problemSchema). */
export type Problem = z.infer<typeof problemSchema>;

/**
 * ProblemMembers are what a problem document adds to its title and status: a registered `type`
 * in place of about:blank, and its extension members (see problemSchema).
 */
export type ProblemMembers = Partial<Omit<Problem, "title" | "status">>;

/**
 * problemDocument builds the one shape of every problem body the server sends: `type`
 * (about:blank), `title`, `status`, then the extension members of `extra` in their order. An
 * `extra.type` replaces about:blank in place, so the members keep this order either way.
 */
export function problemDocument(
  status: number,
  title: string,
  extra: ProblemMembers = {},
): Problem {
  return { type: "about:blank", title, status, ...extra };
}

/**
 * Refusal is a refused request's answer, independent of any HTTP framework: its status, its
 * problem document and its header fields. Each front door writes it as it is.
 */
export interface Refusal {
  status: number;
  /** body is an RFC 9457 problem document. */
  body: Problem;
  headers: Record<string, string>;
}

/**
 * fieldErrorsOf flattens a zod error into messages by dotted field path. The map has no
 * prototype: a client's key named `__proto__`, `constructor` or `toString` is a field like any
 * other, never an inherited member.
 */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  // Regression: a plain object made `errors["toString"] ??= []` find Object.prototype.toString.
  const errors: FieldErrors = Object.create(null);
  for (const issue of error.issues) {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        ((errors[path ? `${path}.${key}` : key] ??= []) as string[]).push("Unknown field");
      continue;
    }
    ((errors[path] ??= []) as string[]).push(issue.message);
  }
  return errors;
}
