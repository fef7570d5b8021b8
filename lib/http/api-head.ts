import type { ServerResponse } from "node:http";

// Next names in Vary, on every answer of an app route (route handlers included), the request
// headers its router sends when it fetches a page's payload. An API answer depends on none of
// them: a cache that keys on them only splits its entries for nothing, and nothing in them tells
// a cache that the answer is per caller. API answers that Next writes are made to read like the
// data plane's (writeAnswer): Vary keeps only what the answer depends on (Accept-Encoding, which
// Next's compression adds), and Cache-Control is no-store (an answer is per caller, and a
// decision changes with every request) unless the route set its own.

/** NEXT_ROUTER_HEADERS are the request headers Next's router adds to Vary, lower-cased. */
export const NEXT_ROUTER_HEADERS: ReadonlySet<string> = new Set([
  "rsc",
  "next-router-state-tree",
  "next-router-prefetch",
  "next-router-segment-prefetch",
  "next-url",
]);

/**
 * apiVary is a Vary field's value without Next's router headers (NEXT_ROUTER_HEADERS, any case),
 * the others kept in their order, or null when none is left. `vary` may be several fields.
 */
export function apiVary(vary: string | readonly string[]): string | null {
  const names = (typeof vary === "string" ? [vary] : vary)
    .flatMap((field) => field.split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "" && !NEXT_ROUTER_HEADERS.has(name.toLowerCase()));
  return names.length > 0 ? names.join(", ") : null;
}

/** isApiTarget tells whether a request target (path and query) is under /api. */
export function isApiTarget(target: string): boolean {
  return target === "/api" || target.startsWith("/api/") || target.startsWith("/api?");
}

/** settleApiHead sets the API head on a response whose head is not written yet (see plainApiHead). */
function settleApiHead(response: ServerResponse): void {
  const vary = response.getHeader("vary");
  if (vary !== undefined) {
    const kept = apiVary(typeof vary === "number" ? String(vary) : vary);
    if (kept === null) response.removeHeader("vary");
    else response.setHeader("Vary", kept);
  }
  if (!response.hasHeader("cache-control")) response.setHeader("Cache-Control", "no-store");
}

/**
 * plainApiHead makes the head of an API answer that Next will write read like one the data plane
 * writes: just before the head goes out, Vary loses Next's router headers (apiVary; removed when
 * nothing is left) and Cache-Control is no-store unless the route set one. Next sets its Vary
 * after the route has answered, so the only place to change it is the head's writing: the
 * response's writeHead, which Node calls for every head (an explicit one, or the one the first
 * write or end sends). The server entry calls this for each /api request it hands to Next.
 */
export function plainApiHead(response: ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = ((...args: Parameters<typeof writeHead>) => {
    settleApiHead(response);
    return writeHead.apply(response, args);
  }) as typeof writeHead;
}
