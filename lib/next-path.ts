/** DEFAULT_NEXT_PATH is where sign-in leads when no safe `next` was asked for. */
export const DEFAULT_NEXT_PATH = "/overview";

/** MAX_NEXT_LENGTH bounds a `next` value, in UTF-16 code units. */
const MAX_NEXT_LENGTH = 2_048;
/** MAX_DECODINGS bounds how many layers of percent-encoding are peeled off before giving up. */
const MAX_DECODINGS = 4;
const BASE = "http://ratekeeper.invalid";

/**
 * isLocalPath tells whether one layer of a `next` value is a path on this server: one leading
 * slash and not two, no backslash (browsers read `/\host` as `//host`), no control character
 * (the URL parser drops tab and line breaks, so `/\t/host` becomes `//host`), and the URL it
 * resolves to stays on this origin.
 */
function isLocalPath(value: string): boolean {
  if (!value.startsWith("/") || value.startsWith("//")) return false;
  if (value.includes("\\")) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return false;
  }
  try {
    return new URL(value, BASE).origin === BASE;
  } catch {
    return false;
  }
}

/**
 * safeNextPath returns `next` when it is a same-origin path (see isLocalPath), checked as given
 * and after each layer of percent-decoding (so `/%5Cevil.example` and `/%09/evil.example` are
 * refused too), and DEFAULT_NEXT_PATH for anything else: other hosts, schemes, lists, encodings
 * that do not decode, or absurd lengths.
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== "string" || next.length > MAX_NEXT_LENGTH) return DEFAULT_NEXT_PATH;
  let layer = next;
  for (let i = 0; i <= MAX_DECODINGS; i++) {
    if (!isLocalPath(layer)) return DEFAULT_NEXT_PATH;
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return DEFAULT_NEXT_PATH;
    }
    if (decoded === layer) return next;
    layer = decoded;
  }
  return DEFAULT_NEXT_PATH;
}

/** LOGIN_PATH is the sign-in page. */
export const LOGIN_PATH = "/login";

/**
 * withoutRscParam drops Next's `_rsc` cache-busting parameter from a request target's query,
 * leaving the rest exactly as written.
 */
function withoutRscParam(target: string): string {
  const hash = target.indexOf("#");
  const bare = hash === -1 ? target : target.slice(0, hash);
  const q = bare.indexOf("?");
  if (q === -1) return bare;
  const kept = bare
    .slice(q + 1)
    .split("&")
    .filter((part) => part !== "" && part !== "_rsc" && !part.startsWith("_rsc="));
  return kept.length === 0 ? bare.slice(0, q) : `${bare.slice(0, q)}?${kept.join("&")}`;
}

/**
 * loginPathFor is where a signed-out visit to `target` (a request target: path and query, as
 * sent) goes: the sign-in page with the whole target, query included, as its `next`, so that
 * signing in lands where the operator was going. A target safeNextPath would refuse, or the
 * sign-in page itself, gives the bare sign-in page (which then leads to the overview).
 */
export function loginPathFor(target: string): string {
  const path = withoutRscParam(target);
  if (path === LOGIN_PATH || path.startsWith(`${LOGIN_PATH}?`)) return LOGIN_PATH;
  if (safeNextPath(path) !== path) return LOGIN_PATH;
  return `${LOGIN_PATH}?next=${encodeURIComponent(path)}`;
}
