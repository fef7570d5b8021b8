import { z } from "zod";
import { parseId } from "@/lib/http";

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
