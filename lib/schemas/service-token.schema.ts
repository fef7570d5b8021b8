import { z } from "zod";
import { SERVICE_TOKEN_SCOPES } from "@/lib/vocabulary";
import { plainText } from "./text.schema";

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
      .array(z.enum(SERVICE_TOKEN_SCOPES, { error: "Unknown scope: decide or peek" }), {
        error: "Choose at least one scope",
      })
      .min(1, "Choose at least one scope")
      .refine((scopes) => new Set(scopes).size === scopes.length, "Name each scope once"),
  })
  .strict();

/** ServiceTokenCreate is a validated new service token. */
export type ServiceTokenCreate = z.infer<typeof serviceTokenCreateSchema>;

/**
 * serviceTokenAnswerSchema is the answer of GET /api/v1/service-token: the calling token as
 * Ratekeeper knows it, by id, name, the 12-character prefix (never the token) and its scopes in
 * SERVICE_TOKEN_SCOPES order. A service checks it at start-up (the SDK's `verify()`).
 */
export const serviceTokenAnswerSchema = z
  .object({
    serviceToken: z
      .object({
        id: z.number().int().positive(),
        name: z.string(),
        prefix: z.string(),
        scopes: z.array(z.enum(SERVICE_TOKEN_SCOPES)),
      })
      .strict(),
  })
  .strict();

/** ServiceTokenAnswer is the answer of GET /api/v1/service-token. */
export type ServiceTokenAnswer = z.infer<typeof serviceTokenAnswerSchema>;
