import { expect } from "vitest";
import type { z } from "zod";

// Helpers of the answer tests: each parses real answers strictly against their schema, so a field
// the server adds, drops or retypes fails there, and the types built from the schema (the
// dashboard's, the servers' builders') cannot silently describe a shape that is not sent.

/** shown is the start of a JSON value's text, to name the answer a failure was about. */
function shown(body: unknown): string {
  const text = JSON.stringify(body) ?? String(body);
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}

/** parsedAs parses a JSON body strictly against the schema and fails the test on any issue. */
export function parsedAs<S extends z.ZodType>(body: unknown, schema: S): z.infer<S> {
  const parsed = schema.safeParse(body);
  expect(parsed.error?.issues ?? [], shown(body)).toEqual([]);
  return parsed.data as z.infer<S>;
}

/** answerOf checks a response's status and parses its body strictly against the schema. */
export async function answerOf<S extends z.ZodType>(
  response: Response | Promise<Response>,
  status: number,
  schema: S,
): Promise<z.infer<S>> {
  const res = await response;
  const body = await res.json();
  expect(res.status, shown(body)).toBe(status);
  return parsedAs(body, schema);
}

/** withExtra is a copy of a JSON value with one more field at the given path. */
export function withExtra(value: unknown, path: (string | number)[]): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path) at = at[key] as Record<string | number, unknown>;
  at.unexpected = true;
  return copy;
}

/** refusesExtra tells whether the schema refuses the value with one more field at `path`. */
export function refusesExtra(
  schema: z.ZodType,
  value: unknown,
  path: (string | number)[],
): boolean {
  return !schema.safeParse(withExtra(value, path)).success;
}
