import { z } from "zod";

/** parseId reads a positive integer route parameter (at most 16 digits, no sign or leading zero), or returns null. */
export function parseId(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * idParamSchema is a path parameter that names a row by id: a positive integer written plainly
 * (see `parseId`), parsed to the number. Anything else names nothing.
 */
export const idParamSchema = z.string().transform((value, ctx) => {
  const id = parseId(value);
  if (id === null) {
    ctx.addIssue({ code: "custom", message: "Not an id" });
    return z.NEVER;
  }
  return id;
});
