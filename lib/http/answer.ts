import {
  type FieldErrors,
  type ProblemMembers,
  problemDocument,
  type Refusal,
} from "@/lib/schemas/problem.schema";

/** PROBLEM_CONTENT_TYPE is the media type of an RFC 9457 problem document. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/**
 * HttpAnswer is an answer before it is written: its status, its header fields and its body's
 * text. Both front doors write the same value, the lean data plane with `writeAnswer` (node:http)
 * and Next's route handlers with `toResponse` (the Fetch API), so an answer reads the same
 * whichever door it leaves by.
 */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** problemBody is the JSON text of an RFC 9457 problem document: type, title, status, extras. */
export function problemBody(status: number, title: string, extra: ProblemMembers = {}): string {
  return JSON.stringify(problemDocument(status, title, extra));
}

/** jsonAnswer is a JSON answer whose body is already written as `json`. */
export function jsonAnswer(status: number, json: string): HttpAnswer {
  return { status, headers: { "Content-Type": "application/json" }, body: json };
}

/** problemAnswer is an RFC 9457 problem answer (see problemDocument), with extra `headers`. */
export function problemAnswer(
  status: number,
  title: string,
  extra: ProblemMembers = {},
  headers: Record<string, string> = {},
): HttpAnswer {
  return {
    status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE, ...headers },
    body: problemBody(status, title, extra),
  };
}

/** refusalAnswer sends a refusal (its problem document and its fields) as it is. */
export function refusalAnswer(refusal: Refusal): HttpAnswer {
  return {
    status: refusal.status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE, ...refusal.headers },
    body: JSON.stringify(refusal.body),
  };
}

/** invalidAnswer is a 400 with field errors by dotted path ("" for the whole body). */
export function invalidAnswer(
  errors: FieldErrors,
  headers: Record<string, string> = {},
): HttpAnswer {
  return problemAnswer(400, "Invalid request", { errors }, headers);
}

/** tooLargeAnswer is the 413 of a body over `maxBytes` bytes. */
export function tooLargeAnswer(maxBytes: number, headers: Record<string, string> = {}): HttpAnswer {
  return problemAnswer(
    413,
    "Body too large",
    { detail: `Send at most ${maxBytes} bytes.` },
    headers,
  );
}
