import { z } from "zod";
import { SERVICE_TOKEN_SCOPES } from "@/lib/vocabulary";
import { ANY_LIST } from "./every-error";
import { plainText } from "./text.schema";

/** SCOPE_LIST names the scopes in words: "decide and peek". */
const SCOPE_LIST = new Intl.ListFormat("en", { type: "conjunction" }).format(SERVICE_TOKEN_SCOPES);

/**
 * CHOOSE_SCOPE asks for at least one scope, as a choice: "Choose at least one scope: decide or
 * peek". Regression: it read "decide and peek", as if both were required.
 */
const CHOOSE_SCOPE = `Choose at least one scope: ${new Intl.ListFormat("en", { type: "disjunction" }).format(SERVICE_TOKEN_SCOPES)}`;

/** MAX_QUOTED_SCOPE is how much of an unknown scope a message repeats (characters). */
const MAX_QUOTED_SCOPE = 40;

/** unknownScope names the scope given and the allowed ones: `Unknown scope "admin": the scopes are decide and peek`. */
function unknownScope(input: unknown): string {
  if (typeof input !== "string") return `Each scope must be a word: ${SCOPE_LIST}`;
  const shown = input.length > MAX_QUOTED_SCOPE ? `${input.slice(0, MAX_QUOTED_SCOPE)}…` : input;
  return `Unknown scope ${JSON.stringify(shown)}: the scopes are ${SCOPE_LIST}`;
}

/** serviceTokenCreateSchema is the body that creates a service token (the token is generated). */
export const serviceTokenCreateSchema = z
  .object({
    name: plainText(
      z
        .string({ error: "Name is required" })
        .trim()
        .min(1, "Name is required")
        .max(80, "Name must be at most 80 characters"),
    ),
    scopes: z
      .array(z.enum(SERVICE_TOKEN_SCOPES, { error: (issue) => unknownScope(issue.input) }), {
        error: (issue) =>
          issue.input === undefined ? CHOOSE_SCOPE : `Scopes must be a list, such as ["decide"]`,
      })
      .min(1, CHOOSE_SCOPE)
      // Beside an unknown scope's error too (ANY_LIST), not once it is fixed.
      .refine((scopes: readonly unknown[]) => new Set(scopes).size === scopes.length, {
        message: "Name each scope once",
        ...ANY_LIST,
      }),
  })
  .strict();

/** ServiceTokenCreate is a validated new service token. */
export type ServiceTokenCreate = z.infer<typeof serviceTokenCreateSchema>;
