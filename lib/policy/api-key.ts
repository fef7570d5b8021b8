import crypto, { createHash, randomBytes } from "node:crypto";

const KEY_PREFIX = "rk_";

/** ApiKey is a freshly generated key: `key` is shown once, `hash` and `prefix` are stored. */
export interface ApiKey {
  key: string;
  hash: string;
  prefix: string;
}

// crypto.hash (Node 20.12+) digests in one call, without a Hash object: a decision hashes twice.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string })
  .hash;

/** hashApiKey returns the SHA-256 hex digest of a key (keys are random, so no salt is needed). */
export function hashApiKey(key: string): string {
  return oneShot ? oneShot("sha256", key, "hex") : createHash("sha256").update(key).digest("hex");
}

/** generateApiKey returns a random key ("rk_" and 32 base64url characters) with its hash and prefix. */
export function generateApiKey(): ApiKey {
  const key = `${KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 10) };
}

/** bearerToken extracts the token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1] ?? null;
}
