import type { z } from "zod";
import { fieldErrorsOf } from "@/lib/schemas/problem.schema";
import { tooLargeAnswer } from "./answer";
import { INVALID_JSON, readJsonText, validateValue } from "./json-text";
import { invalid, toResponse } from "./response";

/** ParseResult is a validated body or the 400 response to send. */
export type ParseResult<T> = { ok: true; data: T } | { ok: false; response: Response };

/** MAX_BODY_BYTES is the largest JSON body any route reads: 1 MiB. */
export const MAX_BODY_BYTES = 1_048_576;

function tooLarge(headers: Record<string, string>): ParseResult<never> {
  return {
    ok: false,
    response: toResponse(tooLargeAnswer(MAX_BODY_BYTES, headers)),
  };
}

/**
 * parseBody reads a JSON body and validates it (readJsonText; an empty body is `undefined` to
 * the schema); bad JSON, a key given twice or bad fields become a 400 with every field error, a
 * body over MAX_BODY_BYTES a 413 (refused on its Content-Length before reading, when it declares
 * one).
 */
export async function parseBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  headers: Record<string, string> = {},
): Promise<ParseResult<z.infer<S>>> {
  if (Number(request.headers.get("content-length")) > MAX_BODY_BYTES) return tooLarge(headers);
  let text: string;
  try {
    text = await request.text();
  } catch {
    return { ok: false, response: invalid({ "": [INVALID_JSON] }, headers) };
  }
  if (text.length > MAX_BODY_BYTES) return tooLarge(headers);
  const read = text.length === 0 ? validateValue(undefined, schema) : readJsonText(text, schema);
  return read.ok ? read : { ok: false, response: invalid(read.errors, headers) };
}

/**
 * parseQuery validates a request's query string, as parseBody does a body: each parameter
 * reaches the schema as a string (a parameter given twice, as a list of strings, which a string
 * field refuses); bad parameters become a 400 with errors by parameter name.
 */
export function parseQuery<S extends z.ZodType>(
  request: Request,
  schema: S,
  headers: Record<string, string> = {},
): ParseResult<z.infer<S>> {
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URL(request.url).searchParams) {
    const seen = query[name];
    query[name] = seen === undefined ? value : [seen, value].flat();
  }
  const parsed = schema.safeParse(query);
  if (!parsed.success)
    return { ok: false, response: invalid(fieldErrorsOf(parsed.error), headers) };
  return { ok: true, data: parsed.data };
}
