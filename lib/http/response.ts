import type { z } from "zod";
import type { FieldErrors, ProblemMembers, Refusal } from "@/lib/schemas/problem.schema";
import { type HttpAnswer, invalidAnswer, problemAnswer, refusalAnswer } from "./answer";

/** toResponse turns an answer into the Fetch API's Response, as Next's route handlers return it. */
export function toResponse(answer: HttpAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** json answers with a JSON body. */
export function json(data: unknown, init: ResponseInit = {}): Response {
  return Response.json(data, init);
}

/**
 * answer answers with a JSON body of an answer schema's shape (lib/schemas/*-answer.schema.ts):
 * the body is typed by the schema, so an answer and its schema cannot drift apart unnoticed (the
 * answer tests parse real answers against the same schema, strictly).
 */
export function answer<S extends z.ZodType>(
  _schema: S,
  data: z.infer<S>,
  init: ResponseInit = {},
): Response {
  return json(data, init);
}

/** problem answers with an RFC 9457 problem document (see problemAnswer). */
export function problem(
  status: number,
  title: string,
  extra: ProblemMembers = {},
  headers: Record<string, string> = {},
): Response {
  return toResponse(problemAnswer(status, title, extra, headers));
}

/** invalid answers 400 with field errors. */
export function invalid(errors: FieldErrors, headers: Record<string, string> = {}): Response {
  return toResponse(invalidAnswer(errors, headers));
}

/** notFound answers 404. */
export function notFound(what = "Not found"): Response {
  return problem(404, what);
}

/** refused answers a refusal (its problem document and its fields) as it is. */
export function refused(refusal: Refusal): Response {
  return toResponse(refusalAnswer(refusal));
}

/** withHeaders sets each header on a response and returns it. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
