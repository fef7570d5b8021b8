import type { z } from "zod";
import { type FieldErrors, fieldErrorsOf } from "@/lib/schemas/problem.schema";

/** Validation is a checked body, or the field errors the server would answer with. */
export type Validation<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/**
 * validateWith checks `input` with a server schema: its parsed body, or its field errors by the
 * server's own dotted paths, so a form can show them where the server would.
 */
export function validateWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
): Validation<z.infer<S>> {
  const parsed = schema.safeParse(input);
  return parsed.success
    ? { ok: true, data: parsed.data as z.infer<S> }
    : { ok: false, errors: fieldErrorsOf(parsed.error) };
}
