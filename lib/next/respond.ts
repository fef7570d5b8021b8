import type { z } from "zod";
import type { Outcome } from "@/lib/admin/plans";
import { invalid, json, problem } from "@/lib/http/response";

/** respond maps a service Outcome to a response: the value as JSON, or its status and errors. */
export function respond<T>(
  outcome: Outcome<T>,
  toBody: (value: T) => unknown,
  status = 200,
): Response {
  if (outcome.ok) {
    return status === 204
      ? new Response(null, { status })
      : json(toBody(outcome.value), { status });
  }
  if (outcome.status === 400 && outcome.errors) return invalid(outcome.errors);
  return problem(outcome.status, outcome.title, outcome.errors ? { errors: outcome.errors } : {});
}

/**
 * respondAs is respond for an answer with a schema (lib/schemas/*-answer.schema.ts): the body
 * toBody builds from the value is typed by the schema.
 */
export function respondAs<T, S extends z.ZodType>(
  _schema: S,
  outcome: Outcome<T>,
  toBody: (value: T) => z.infer<S>,
  status = 200,
): Response {
  return respond(outcome, toBody, status);
}
