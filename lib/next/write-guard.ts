import { getEnv } from "@/lib/env";
import { trustedForwardedValue } from "@/lib/http/client-address";
import { jsonTypeOf, UTF8_DETAIL } from "@/lib/http/media-type";
import { problem } from "@/lib/http/response";

/** SAFE_METHODS change nothing: the write guard lets them through. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** isSafeMethod tells whether a method only reads (GET, HEAD, OPTIONS). */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * ownHosts are the host names (with port) this server answers as: the request's Host (or, for a
 * request made in-process, its URL's host), and with TRUST_PROXY the host the outermost trusted
 * proxy was asked for (X-Forwarded-Host).
 */
function ownHosts(request: Request, trustProxy: number): string[] {
  const hosts = [request.headers.get("host") ?? new URL(request.url).host];
  const forwarded = trustedForwardedValue(
    request.headers.get("x-forwarded-host") ?? undefined,
    trustProxy,
  );
  if (forwarded) hosts.push(forwarded);
  return hosts.map((host) => host.toLowerCase());
}

/** hostOf is the host (with port) of an Origin header, or null for `null` and garbage. */
function hostOf(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * crossOriginRefusal refuses (403) a state change that a browser marks as coming from another
 * site, as Go's net/http CrossOriginProtection does: GET, HEAD and OPTIONS pass; otherwise
 * `Sec-Fetch-Site` must be `same-origin` or `none` when present; when it is absent, an `Origin`
 * must name this server's host. A request with neither header did not come from a browser's
 * page (curl, scripts, other services) and is judged by its credentials alone.
 */
export function crossOriginRefusal(request: Request, trustProxy: number): Response | null {
  if (isSafeMethod(request.method)) return null;
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) {
    return site === "same-origin" || site === "none" ? null : refuseCrossOrigin();
  }
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const host = hostOf(origin);
  return host !== null && ownHosts(request, trustProxy).includes(host) ? null : refuseCrossOrigin();
}

function refuseCrossOrigin(): Response {
  return problem(403, "Cross-origin request refused", {
    detail:
      "Changes to Ratekeeper can be made from its own pages, or by a client that sends no Origin header.",
  });
}

/** declaresBody tells whether a request says it carries a body (a length above 0, or chunks). */
function declaresBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return (length !== null && length.trim() !== "0") || request.headers.has("transfer-encoding");
}

/**
 * contentTypeRefusal refuses (415) a state change whose body is not declared
 * `application/json` in UTF-8, before anything of it is read: a request with a Content-Type must
 * declare JSON (with no charset or charset=utf-8: the body is read as UTF-8), and one without must
 * carry no body. Forms and `text/plain`, which a browser may send to another site without asking
 * it first, never reach a handler.
 */
export function contentTypeRefusal(request: Request): Response | null {
  if (isSafeMethod(request.method)) return null;
  const contentType = request.headers.get("content-type");
  if (contentType === null) {
    return declaresBody(request) ? refuseType("not-json") : null;
  }
  const type = jsonTypeOf(contentType);
  return type === "json" ? null : refuseType(type);
}

/** refuseType is the 415 for a body not declared JSON, or declared JSON in another charset. */
function refuseType(type: "not-json" | "other-charset"): Response {
  return problem(415, "Unsupported media type", {
    detail:
      type === "other-charset"
        ? UTF8_DETAIL
        : "Send the body as JSON, with Content-Type: application/json.",
  });
}

/**
 * writeRefusal is the one check every admin state change passes before its handler reads
 * anything (withOperator, and sign-in and sign-out): a 403 for a cross-origin request, a 415 for
 * a body that is not JSON, or null to go on. `trustProxy` (TRUST_PROXY by default) says whether
 * X-Forwarded-Host names this server too.
 */
export function writeRefusal(
  request: Request,
  trustProxy: number = getEnv().TRUST_PROXY,
): Response | null {
  return crossOriginRefusal(request, trustProxy) ?? contentTypeRefusal(request);
}
