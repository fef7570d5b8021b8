import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync } from "node:fs";
import path from "node:path";
import { MALFORMED_PATH, malformedPath } from "@/lib/http/request-target";
import { problem } from "@/lib/http/response";
import type { DiscoveredRoute } from "./discover";

// What the server entry and Next.js do with a request before and around a route handler, for a
// suite that calls the handlers directly: the entry refuses a path that is not valid
// percent-encoding (400, before Next); Next redirects a path with an empty segment or a trailing slash to its
// normal form, run the app's proxy (if it has one, where its matcher matches), decode the
// dynamic segments (a malformed escape fails there, before any handler), and turn a handler
// that throws into the bare 500 Next would send.

/** ProxyModule is the app's proxy.ts (or middleware.ts): its function and its matcher config. */
export interface ProxyModule {
  run: (request: Request) => unknown;
  config?: { matcher?: unknown };
}

/** Answer is what the client got, and a note when the answer came from Next, not the app. */
export interface Answer {
  response: Response;
  note?: string;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const PROXY_FILES = ["proxy.ts", "middleware.ts", "src/proxy.ts", "src/middleware.ts"];

/**
 * nextServer loads next/server as Next's own process would: with AsyncLocalStorage on
 * globalThis, which Next's server modules expect (they fail when loaded without it).
 */
export async function nextServer(): Promise<typeof import("next/server")> {
  (globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
  return import("next/server");
}

/** loadProxy imports the app's proxy, if it has one. */
export async function loadProxy(): Promise<ProxyModule | undefined> {
  for (const file of PROXY_FILES) {
    const full = path.join(ROOT, file);
    if (!existsSync(full)) continue;
    await nextServer();
    const module = (await import(/* @vite-ignore */ full)) as Record<string, unknown>;
    const run = module.proxy ?? module.middleware ?? module.default;
    if (typeof run !== "function") throw new Error(`${file} exports no proxy function`);
    return { run: run as ProxyModule["run"], config: module.config as ProxyModule["config"] };
  }
  return undefined;
}

/** runProxy answers for the proxy, or returns the request (maybe with headers it rewrote). */
async function runProxy(proxy: ProxyModule, request: Request): Promise<Request | Response> {
  const { NextRequest } = await nextServer();
  const { unstable_doesMiddlewareMatch } = await import("next/experimental/testing/server");
  const { pathname, search } = new URL(request.url);
  const matches = unstable_doesMiddlewareMatch({
    config: { matcher: proxy.config?.matcher as never },
    url: `${pathname}${search}`,
    headers: Object.fromEntries(request.headers),
  });
  if (!matches) return request;
  const result = (await proxy.run(new NextRequest(request.clone()))) as Response | undefined;
  if (!result) return request;
  if (result.headers.has("x-middleware-rewrite")) {
    throw new Error("The proxy rewrote a request: teach test/fuzz/front.ts to follow rewrites");
  }
  if (result.headers.get("x-middleware-next") !== "1") return result;
  const overridden = result.headers.get("x-middleware-override-headers");
  if (overridden === null) return request;
  const headers = new Headers();
  for (const name of overridden.split(",").filter(Boolean)) {
    const value = result.headers.get(`x-middleware-request-${name}`);
    if (value !== null) headers.set(name, value);
  }
  return new Request(request, { headers });
}

/** normalPathOf is the path Next redirects to before routing (308), or null when it routes it. */
function normalPathOf(pathname: string): string | null {
  if (pathname.includes("//")) return pathname.replace(/\/\/+/g, "/");
  return pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : null;
}

/**
 * dispatch answers a request the way the app behind Next would: Next's redirect of a path it
 * normalizes, the proxy, the route's params decoded from their raw (percent-encoded) segments,
 * then the handler.
 */
export async function dispatch(
  route: DiscoveredRoute,
  request: Request,
  rawParams: Record<string, string>,
  proxy: ProxyModule | undefined,
): Promise<Answer> {
  const url = new URL(request.url);
  if (malformedPath(`${url.pathname}${url.search}`)) {
    const { status, title, detail } = MALFORMED_PATH;
    return {
      response: problem(status, title, { detail }),
      note: "the server entry refused the path before Next",
    };
  }
  const normal = normalPathOf(url.pathname);
  if (normal !== null) {
    const location = `${normal}${url.search}`;
    return {
      response: new Response(location, { status: 308, headers: { location } }),
      note: "Next redirected the path to its normal form: no handler ran",
    };
  }
  let forwarded = request;
  if (proxy) {
    const result = await runProxy(proxy, request);
    if (result instanceof Response) return { response: result };
    forwarded = result;
  }
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(rawParams)) {
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      // Next's route matcher throws a DecodeError here, before any handler: a bare 500.
      return {
        response: new Response("Internal Server Error", { status: 500 }),
        note: `Next could not decode the [${name}] segment: no handler ran`,
      };
    }
  }
  try {
    return { response: await route.handler(forwarded, { params: Promise.resolve(params) }) };
  } catch (cause) {
    return {
      response: new Response(null, { status: 500 }),
      note: `the handler threw ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`,
    };
  }
}
