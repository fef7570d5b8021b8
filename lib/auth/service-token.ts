import { randomBytes } from "node:crypto";
import { hashApiKey } from "@/lib/policy/api-key";

/** SERVICE_TOKEN_PREFIX starts every service token, so it is told apart from a customer's key. */
export const SERVICE_TOKEN_PREFIX = "rks_";

/** SERVICE_TOKEN_SHOWN is how many leading characters of a token are stored to recognise it (12). */
export const SERVICE_TOKEN_SHOWN = 12;

/** NewServiceToken is a freshly generated token: `token` is shown once; `hash` and `prefix` are stored. */
export interface NewServiceToken {
  token: string;
  hash: string;
  prefix: string;
}

/** hashServiceToken returns a token's SHA-256 hex digest (tokens are random: no salt is needed). */
export function hashServiceToken(token: string): string {
  return hashApiKey(token);
}

/** generateServiceToken returns a random token ("rks_" and 32 base64url characters, 192 bits). */
export function generateServiceToken(): NewServiceToken {
  const token = `${SERVICE_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  return { token, hash: hashServiceToken(token), prefix: token.slice(0, SERVICE_TOKEN_SHOWN) };
}
