import { readdirSync } from "node:fs";
import path from "node:path";

/** HTTP_METHODS are the handler names Next.js routes a request to. */
export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Handler is a route handler as Next calls it: the request and the route's params. */
export type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Response | Promise<Response>;

/** DiscoveredRoute is one exported method of one app/api/**\/route.ts. */
export interface DiscoveredRoute {
  /** key is "METHOD /path" with `[param]` segments as written, e.g. "GET /api/v1/items/[id]". */
  key: string;
  method: string;
  /** path is the URL path with its `[param]` segments, e.g. "/api/v1/items/[id]". */
  path: string;
  /** params are the names of its dynamic segments, in order (a catch-all keeps its dots). */
  params: string[];
  handler: Handler;
}

/** APP_DIR is the Next.js app directory, from the repository root. */
const APP_DIR = path.resolve(import.meta.dirname, "../../app");

/** urlPathOf turns a route file's folder into its URL path: route groups "(x)" take no segment. */
function urlPathOf(file: string): string {
  const segments = path
    .relative(APP_DIR, path.dirname(file))
    .split(path.sep)
    .filter((segment) => !/^\(.*\)$/.test(segment));
  return `/${segments.join("/")}`;
}

/**
 * discoverRoutes finds every route handler under app/api and every HTTP method it exports, so a
 * route added later is fuzzed without anyone listing it.
 */
export async function discoverRoutes(): Promise<DiscoveredRoute[]> {
  const apiDir = path.join(APP_DIR, "api");
  const files = readdirSync(apiDir, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => path.join(apiDir, file))
    .sort();
  const routes: DiscoveredRoute[] = [];
  for (const file of files) {
    const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    const urlPath = urlPathOf(file);
    const params = urlPath
      .split("/")
      .map((segment) => /^\[{1,2}(.+?)\]{1,2}$/.exec(segment)?.[1])
      .filter((param): param is string => param !== undefined);
    for (const method of HTTP_METHODS) {
      const handler = module[method];
      if (typeof handler !== "function") continue;
      routes.push({
        key: `${method} ${urlPath}`,
        method,
        path: urlPath,
        params,
        handler: handler as Handler,
      });
    }
  }
  return routes;
}
