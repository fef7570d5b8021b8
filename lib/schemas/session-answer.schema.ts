import { z } from "zod";

/** sessionAnswerSchema is GET /api/admin/session's answer: who is signed in. */
export const sessionAnswerSchema = z.object({ actor: z.string() }).strict();

/** SessionAnswer is GET /api/admin/session's answer. */
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;

/**
 * signedInAnswerSchema is POST /api/admin/session's answer: who signed in, and when the session
 * ends (ms since 1970).
 */
export const signedInAnswerSchema = sessionAnswerSchema
  .extend({ expiresAt: z.number().int() })
  .strict();

/** SignedInAnswer is what signing in answers. */
export type SignedInAnswer = z.infer<typeof signedInAnswerSchema>;
