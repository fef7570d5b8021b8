import crypto, { createHash, randomBytes } from "node:crypto";
import { DigestMemo } from "./digest-memo";

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

/** PRESENTED_DIGESTS is how many presented keys and service tokens the process remembers the digests of: 10,000. */
export const PRESENTED_DIGESTS = 10_000;

const presented = new DigestMemo(PRESENTED_DIGESTS, hashApiKey);

/**
 * presentedKeyHash is `hashApiKey` of a key or service token a request presents, remembered for
 * the last PRESENTED_DIGESTS of them (see DigestMemo): the decision path digests every request's
 * key and token, most of them seen a moment before.
 */
export function presentedKeyHash(key: string): string {
  return presented.digest(key);
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

/**
 * AuthorizationProblem says why an Authorization field carries no Bearer token: there is none
 * ("missing": no field, a blank one, or the scheme alone), it is another scheme or a bare token
 * ("not_bearer": `Authorization: rk_…`, `Basic …`), or more than one token follows "Bearer"
 * ("malformed").
 */
export type AuthorizationProblem = "missing" | "not_bearer" | "malformed";

/** BearerRead is an Authorization field read: its Bearer token, or why it has none. */
export type BearerRead = { ok: true; token: string } | { ok: false; problem: AuthorizationProblem };

/**
 * readBearer reads an Authorization field for its Bearer token (as `bearerToken` does) and, when
 * there is none, says why. It is the one place a key or a service token is read from a request:
 * protect(), the gateway and the decision API all answer its problems alike.
 */
export function readBearer(header: string | null | undefined): BearerRead {
  const token = bearerToken(header ?? null);
  if (token) return { ok: true, token };
  const field = (header ?? "").trim();
  if (field === "" || /^Bearer$/i.test(field)) return { ok: false, problem: "missing" };
  return { ok: false, problem: /^Bearer[ \t]/i.test(field) ? "malformed" : "not_bearer" };
}
