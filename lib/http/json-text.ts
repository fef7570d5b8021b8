import type { z } from "zod";
import { type FieldErrors, fieldErrorsOf } from "@/lib/schemas/problem.schema";
import { repeatedKeyPaths } from "./repeated-keys";

/** INVALID_JSON is the error, at "" (the whole body), of a body that is not JSON. */
export const INVALID_JSON = "Body must be valid JSON";
/** REPEATED_KEY is the error at a key that one object of a body gives more than once. */
export const REPEATED_KEY = "Given more than once";

/** JsonRead is a body's validated value, or its errors by field path (a 400's `errors`). */
export type JsonRead<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/** validateValue validates a body's value with `schema`: the value, or every error by field. */
export function validateValue<S extends z.ZodType>(
  value: unknown,
  schema: S,
): JsonRead<z.infer<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, errors: fieldErrorsOf(parsed.error) };
}

/**
 * readJsonText reads a body's text as JSON and validates it with `schema`, the one way both front
 * doors read a JSON body: text that is not JSON is an error at "" (INVALID_JSON); a key that an
 * object gives twice is an error at its path (REPEATED_KEY: JSON.parse would keep the last one
 * without a word, so the body means two things), in place of the errors at or under that path,
 * and with every other field error of the body, on the value JSON.parse made.
 */
export function readJsonText<S extends z.ZodType>(text: string, schema: S): JsonRead<z.infer<S>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, errors: { "": [INVALID_JSON] } };
  }
  const repeated = repeatedKeyPaths(text);
  const read = validateValue(value, schema);
  if (repeated === null) return read;
  const errors: FieldErrors = read.ok ? Object.create(null) : read.errors;
  // The value at a repeated key is whichever came last: what the schema says of it, or of
  // anything in it, is moot.
  for (const field of Object.keys(errors)) {
    if (repeated.some((path) => field === path || field.startsWith(`${path}.`))) {
      delete errors[field];
    }
  }
  for (const path of repeated) errors[path] = [REPEATED_KEY];
  return { ok: false, errors };
}
