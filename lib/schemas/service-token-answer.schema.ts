import { z } from "zod";
import { SERVICE_TOKEN_SCOPES } from "@/lib/vocabulary";

/** serviceTokenViewSchema is a service token as operators see it: never its hash. Times in ms. */
export const serviceTokenViewSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.enum(SERVICE_TOKEN_SCOPES)),
    createdAt: z.number().int(),
    createdBy: z.string(),
    lastUsedAt: z.number().int().nullable(),
    revokedAt: z.number().int().nullable(),
  })
  .strict();

/** ServiceTokenView is a service token as answered. */
export type ServiceTokenView = z.infer<typeof serviceTokenViewSchema>;

/**
 * listedServiceTokenSchema is a token as the list shows it: with its decision calls refused in
 * the last hour (revoked: 401; lacking a scope: 403), this instance's count.
 */
export const listedServiceTokenSchema = serviceTokenViewSchema
  .extend({ refusedLastHour: z.number().int().nonnegative() })
  .strict();

/** ListedServiceToken is a token with its refused calls of the last hour. */
export type ListedServiceToken = z.infer<typeof listedServiceTokenSchema>;

/**
 * serviceTokensAnswerSchema is GET /api/admin/service-tokens's answer: the tokens, newest first,
 * and the decision calls of the last hour with an unknown or no token.
 */
export const serviceTokensAnswerSchema = z
  .object({
    serviceTokens: z.array(listedServiceTokenSchema),
    unknownRefusedLastHour: z.number().int().nonnegative(),
  })
  .strict();

/** ServiceTokensAnswer is the service-token list's answer. */
export type ServiceTokensAnswer = z.infer<typeof serviceTokensAnswerSchema>;

/** createdServiceTokenAnswerSchema is POST /api/admin/service-tokens's answer: the token, shown this once. */
export const createdServiceTokenAnswerSchema = z
  .object({ serviceToken: serviceTokenViewSchema, token: z.string() })
  .strict();

/** CreatedServiceTokenAnswer is a new token's answer. */
export type CreatedServiceTokenAnswer = z.infer<typeof createdServiceTokenAnswerSchema>;
