import type { z } from "zod";

/** json answers with a JSON body. */
export function json(data: unknown, init: ResponseInit = {}): Response {
  return Response.json(data, init);
}

/** problem answers with an RFC 9457 problem document. */
export function problem(
  status: number,
  title: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ type: "about:blank", title, status, ...extra }), {
    status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });
}

/** FieldErrors maps a field's dotted path ("limits.0.count", or "" for the whole body) to messages. */
export type FieldErrors = Record<string, readonly string[]>;

/** fieldErrorsOf flattens a zod error into messages by dotted field path. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
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

/** invalid answers 400 with field errors. */
export function invalid(errors: FieldErrors, headers: Record<string, string> = {}): Response {
  return problem(400, "Invalid request", { errors }, headers);
}

/** ParseResult is a validated body or the 400 response to send. */
export type ParseResult<T> = { ok: true; data: T } | { ok: false; response: Response };

/** MAX_BODY_BYTES is the largest JSON body any route reads: 1 MiB. */
export const MAX_BODY_BYTES = 1_048_576;

function tooLarge(headers: Record<string, string>): ParseResult<never> {
  return {
    ok: false,
    response: problem(
      413,
      "Body too large",
      { detail: `Send at most ${MAX_BODY_BYTES} bytes.` },
      headers,
    ),
  };
}

/**
 * parseBody reads a JSON body and validates it; bad JSON or bad fields become a 400, a body over
 * MAX_BODY_BYTES a 413 (refused on its Content-Length before reading, when it declares one).
 */
export async function parseBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  headers: Record<string, string> = {},
): Promise<ParseResult<z.infer<S>>> {
  if (Number(request.headers.get("content-length")) > MAX_BODY_BYTES) return tooLarge(headers);
  let body: unknown;
  try {
    const text = await request.text();
    if (text.length > MAX_BODY_BYTES) return tooLarge(headers);
    body = text.length === 0 ? undefined : JSON.parse(text);
  } catch {
    return { ok: false, response: invalid({ "": ["Body must be valid JSON"] }, headers) };
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    return { ok: false, response: invalid(fieldErrorsOf(parsed.error), headers) };
  return { ok: true, data: parsed.data };
}

/** parseId reads a positive integer route parameter, or returns null. */
export function parseId(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/** notFound answers 404. */
export function notFound(what = "Not found"): Response {
  return problem(404, what);
}

/**
 * parseQuery validates a request's query string (each parameter given once) with a schema of
 * string fields; bad or repeated parameters become a 400 with field errors.
 */
export function parseQuery<S extends z.ZodType>(
  request: Request,
  schema: S,
): ParseResult<z.infer<S>> {
  const params = new URL(request.url).searchParams;
  const query: Record<string, string> = {};
  const repeated: FieldErrors = {};
  for (const [key, value] of params) {
    if (key in query) repeated[key] = ["Give this parameter once"];
    query[key] = value;
  }
  if (Object.keys(repeated).length > 0) return { ok: false, response: invalid(repeated) };
  const parsed = schema.safeParse(query);
  if (!parsed.success) return { ok: false, response: invalid(fieldErrorsOf(parsed.error)) };
  return { ok: true, data: parsed.data };
}
